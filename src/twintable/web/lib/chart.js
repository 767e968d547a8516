// A rating's history as a small line chart: where each point sits in a box of a given
// size (pure, tested with node), and the SVG drawn from it. The vertical scale is zoomed
// to the ratings shown, with a little room, so a one-point move is visible.

const SVG = "http://www.w3.org/2000/svg";

// Where each point of `values` goes in a `width` × `height` box with `pad` around it:
// the first value on the left, the last on the right, the highest at the top. A single
// value sits in the middle; equal values sit on one middle line.
export function chartPoints(values, width, height, pad = 4) {
  if (!values.length) return { points: [], low: 0, high: 0 };
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 1e-9) { low -= 1; high += 1; }
  const room = (high - low) * 0.08;
  low -= room; high += room;
  const across = width - 2 * pad;
  const down = height - 2 * pad;
  const points = values.map((value, index) => [
    values.length === 1 ? width / 2 : pad + (across * index) / (values.length - 1),
    pad + (down * (high - value)) / (high - low),
  ]);
  return { points, low, high };
}

// The SVG path through the points, rounded to a tenth of a pixel.
export function linePath(points) {
  return points.map(([x, y], index) => `${index ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join(" ");
}

// The chart as an SVG element with an accessible name (`label`); the last point marked.
export function ratingChart(values, { width = 320, height = 96, label = "" } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const { points } = chartPoints(values, width, height);
  const line = document.createElementNS(SVG, "path");
  line.setAttribute("d", linePath(points));
  line.setAttribute("class", "rating-line");
  svg.append(line);
  if (points.length) {
    const [x, y] = points[points.length - 1];
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x.toFixed(1));
    dot.setAttribute("cy", y.toFixed(1));
    dot.setAttribute("r", "3.5");
    dot.setAttribute("class", "rating-dot");
    svg.append(dot);
  }
  return svg;
}
