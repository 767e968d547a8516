// What this browser remembers (localStorage): seat tokens and invite keys per table, the
// name people go by, their profile, the language, sound and replay speed.
const read = (key, fallback) => {
  try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; } catch { return fallback; }
};

export const tokens = () => read("tt.tokens", {});
// `socket`: where the table's worker takes its socket (`Joined.socket`), null with one process.
export function saveToken(tableId, token, seat, socket = null) {
  localStorage.setItem("tt.tokens", JSON.stringify({ ...tokens(), [tableId]: { token, seat, socket } }));
}

const inviteKeys = () => read("tt.keys", {});
export const inviteKey = (tableId) => inviteKeys()[tableId] || null;
export function saveKey(tableId, key) {
  localStorage.setItem("tt.keys", JSON.stringify({ ...inviteKeys(), [tableId]: key }));
}

export const displayName = () => localStorage.getItem("tt.name") || "";
export const setDisplayName = (name) => localStorage.setItem("tt.name", name);

export const profile = () => ({ id: localStorage.getItem("tt.player"), secret: localStorage.getItem("tt.secret") });
export function saveProfile(id, secret) {
  localStorage.setItem("tt.player", id);
  localStorage.setItem("tt.secret", secret);
}
export function forgetProfile() {
  localStorage.removeItem("tt.player");
  localStorage.removeItem("tt.secret");
}
// The profile a profile link replaced ("id.secret"), kept to switch back to.
export const previousProfile = () => localStorage.getItem("tt.previous");
export const savePreviousProfile = (id, secret) => localStorage.setItem("tt.previous", `${id}.${secret}`);

export const setting = (name) => localStorage.getItem(`tt.${name}`);
export const saveSetting = (name, value) => localStorage.setItem(`tt.${name}`, String(value));
