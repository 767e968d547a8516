// The replay's steps, fetched a page at a time (GET /api/tables/<id>/replay/steps): the
// page under the cursor first, so its frame shows at once, then the next page ahead of the
// cursor (autoplay never waits) and the pages behind it that the log reads. No DOM here:
// `fetchPage(from, count)` is handed in (the page passes the API, tests a fake).

// Steps a page asks for (the server allows up to 100): a Twin It step of four seats is
// some 12 kB of JSON, and a page at 4× autoplay still lasts 7 s, time to fetch the next.
export const REPLAY_PAGE = 25;

// The first step of the page holding step `index`.
export const pageStart = (index, size = REPLAY_PAGE) => Math.floor(index / size) * size;

// The pages worth fetching with the cursor at `index` (given `last`, the last step): its
// own, the one before (the previous step and the log), the one after (the steps to come)
// and the last (the "last move" button), each once, the cursor's first.
export function pagesAround(index, last, size = REPLAY_PAGE) {
  const starts = [index, index - 1, index + size, last].filter((at) => at >= 0 && at <= last)
    .map((at) => pageStart(at, size));
  return [...new Set(starts)];
}

// The steps read so far. `onPage(from, steps)` hears of every page as it lands.
export function replaySteps(fetchPage, { size = REPLAY_PAGE, onPage = () => {} } = {}) {
  const steps = [];  // sparse: steps[i] once its page has come
  const pending = new Map();  // a page's first step -> its request, asked for once
  let last = null;  // the last step (the number of moves), known from the first answer

  function load(index) {
    const from = pageStart(index, size);
    if (steps[from] !== undefined) return Promise.resolve();
    if (!pending.has(from)) {
      pending.set(from, fetchPage(from, size).then((page) => {
        last = page.moves;
        page.steps.forEach((step, offset) => { steps[from + offset] = step; });
        onPage(from, page.steps);
      }).finally(() => pending.delete(from)));
    }
    return pending.get(from);
  }

  return {
    get last() { return last; },
    has: (index) => steps[index] !== undefined,
    get: (index) => steps[index],
    load,
    // The first page: the one holding `index`, or the last one for a move past the end
    // (an old link); answers the step to show.
    async open(index) {
      const wanted = Math.max(0, Math.floor(Number(index) || 0));
      try {
        await load(wanted);
      } catch (error) {
        if (error.code !== "replay.past_end") throw error;
        await load(0);
      }
      const shown = Math.min(wanted, last);
      await load(shown);
      return shown;
    },
    // Fetch what the cursor at `index` will want next; a failure here is retried by the
    // next move's prefetch or its own load.
    prefetch(index) {
      if (last === null) return;
      for (const from of pagesAround(index, last, size)) load(from).catch(() => {});
    },
    // The earliest step of the run of read steps that ends at `index`.
    firstRead(index) {
      let at = index;
      while (at > 0 && steps[at - 1] !== undefined) at--;
      return at;
    },
  };
}
