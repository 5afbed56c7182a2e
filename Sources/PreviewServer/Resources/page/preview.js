// Reel preview: the page's player. Paused, it shows exact frames (PNG, reel frame's pixels);
// playing, the browser plays the server's pieces (one segment each, fragmented MP4 with
// H.264 and FLAC) through Media Source Extensions. See docs/preview.md.
"use strict";

const $ = (id) => document.getElementById(id);
const screen = $("screen"), still = $("still"), video = $("video");

const player = {
  state: null,        // the server's state (PageState)
  frame: 0,           // the frame shown when paused (and where playback starts)
  playing: false,
  source: null,       // MediaSource
  buffer: null,       // its SourceBuffer
  appended: new Map(),// segment index -> key of the piece appended
  fetching: new Map(),// segment index -> key being fetched
  queue: [],          // SourceBuffer operations, one at a time
  stillFrame: null,   // "generation/frame" of the picture shown
  stillWanted: null,
  stillLoading: false,
  shuttle: null,      // J: { rate, timer } while going backwards through exact frames
  stalls: { count: 0, seconds: 0, since: null }, // waits for a piece while playing (measured)
};
window.reelPreview = player; // for the browser tests

// ---- time ---------------------------------------------------------------------------------

const frameSeconds = () => player.state.frameDuration[0] / player.state.frameDuration[1];
const frameAt = (t) => Math.max(0, Math.min(player.state.frames - 1,
  Math.floor((t * player.state.frameDuration[1]) / player.state.frameDuration[0] + 1e-9)));
const timeOf = (n) => (n * player.state.frameDuration[0]) / player.state.frameDuration[1];
const segmentAt = (t) => player.state.segments.findIndex((s) => t >= s.start - 1e-9 && t < s.end - 1e-9);

function clock(n) {
  // HH:MM:SS.mmm of frame n's start, from the exact fraction (milliseconds rounded down).
  const [num, den] = player.state.frameDuration;
  const ms = Math.floor((n * num * 1000) / den);
  const pad = (v, w) => String(v).padStart(w, "0");
  return `${pad(Math.floor(ms / 3600000), 2)}:${pad(Math.floor(ms / 60000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}.${pad(ms % 1000, 3)}`;
}

function showTime(n) {
  $("timecode").textContent = clock(n);
  $("frame").textContent = `frame ${n} / ${player.state.frames}`;
  $("scrub").value = n;
  movePlayhead(timeOf(n));
}

// ---- exact stills ---------------------------------------------------------------------------

// Loads the frame's PNG; while one loads, only the latest wish waits (scrubbing stays live).
function wantStill(n) {
  if (player.state.generation == null) return;
  player.stillWanted = `${player.state.generation}/${n}`;
  if (!player.stillLoading) loadStill();
}

function loadStill() {
  const wanted = player.stillWanted;
  if (wanted === player.stillFrame) return;
  player.stillLoading = true;
  const image = new Image();
  image.onload = () => {
    still.src = image.src; // the last good picture stays until a new one has loaded
    player.stillFrame = wanted;
    player.stillLoading = false;
    if (!player.playing) screen.classList.remove("playing");
    if (player.stillWanted !== wanted) loadStill();
  };
  image.onerror = () => {
    player.stillLoading = false; // a stale generation: the next state asks again
    if (player.stillWanted !== wanted) loadStill();
  };
  image.src = `/frame/${wanted}.png`;
}

function seekFrame(n) {
  if (!player.state || player.state.generation == null) return;
  n = Math.max(0, Math.min(player.state.frames - 1, n));
  if (player.playing) pause();
  player.frame = n;
  showTime(n);
  wantStill(n);
  tellPlayhead(timeOf(n));
}

let toldSegment = -1;
function tellPlayhead(t) {
  const segment = segmentAt(t);
  if (segment < 0 || segment === toldSegment) return;
  toldSegment = segment;
  fetch("/api/playhead", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ segment }) });
}

// ---- playback through Media Source Extensions ----------------------------------------------

function mimeType() {
  return player.state.hasAudio ? 'video/mp4; codecs="avc1.640028,flac"' : 'video/mp4; codecs="avc1.640028"';
}

function openSource() {
  return new Promise((resolve) => {
    if (player.buffer) return resolve();
    player.source = new MediaSource();
    player.source.addEventListener("sourceopen", () => {
      player.buffer = player.source.addSourceBuffer(mimeType());
      player.buffer.mode = "segments";
      player.buffer.addEventListener("updateend", runQueue);
      player.source.duration = player.state.duration;
      resolve();
    }, { once: true });
    video.src = URL.createObjectURL(player.source);
  });
}

// Closes the player's media source (a new size or sound layout needs a fresh one).
function closeSource() {
  player.buffer = null;
  player.source = null;
  player.appended.clear();
  player.queue = [];
  video.removeAttribute("src");
  video.load();
}

function enqueue(operation) {
  player.queue.push(operation);
  runQueue();
}

function runQueue() {
  const buffer = player.buffer;
  if (!buffer || buffer.updating || player.queue.length === 0) return;
  const operation = player.queue.shift();
  try {
    operation(buffer);
  } catch (error) {
    console.warn("preview: media buffer operation failed", error);
  }
  if (!buffer.updating) runQueue();
}

// Appends segment i's piece at its place on the timeline: the piece starts at 0, so its
// timestamps move by the segment's start; the window cuts everything outside the segment.
function ensureSegment(i) {
  const segment = player.state.segments[i];
  if (!segment || player.appended.get(i) === segment.key || player.fetching.get(i) === segment.key) return;
  player.fetching.set(i, segment.key);
  fetch(`/piece/${segment.key}.mp4`).then((response) => {
    if (!response.ok) throw new Error(`piece ${i}: ${response.status}`);
    return response.arrayBuffer();
  }).then((bytes) => {
    if (player.fetching.get(i) !== segment.key) return; // replaced meanwhile
    enqueue((buffer) => {
      const current = player.state.segments[i];
      if (!current || current.key !== segment.key) return;
      buffer.appendWindowStart = 0;
      buffer.appendWindowEnd = segment.end;
      buffer.appendWindowStart = segment.start;
      buffer.timestampOffset = segment.start;
      buffer.appendBuffer(bytes);
      player.appended.set(i, segment.key);
      endIfComplete();
    });
  }).catch((error) => console.warn("preview:", error.message)).finally(() => {
    if (player.fetching.get(i) === segment.key) player.fetching.delete(i);
  });
}

// Once every piece is appended, tells the media source the stream ends there, so playback
// ends ("ended") instead of waiting for more. A later append opens it again.
function endIfComplete() {
  const all = player.state.segments.every((segment, i) => player.appended.get(i) === segment.key);
  if (!all) return;
  enqueue(() => {
    if (player.source && player.source.readyState === "open") player.source.endOfStream();
  });
}

// Drops appended pieces whose content changed (or that are gone) after a reload.
function dropChanged() {
  for (const [i, key] of [...player.appended]) {
    const segment = player.state.segments[i];
    if (segment && segment.key === key) continue;
    player.appended.delete(i);
    const range = segment || { start: 0, end: player.state.duration };
    enqueue((buffer) => buffer.remove(range.start, range.end));
  }
}

// Keeps the pieces of the current segment and the next two in the buffer.
function feedAhead() {
  const t = video.currentTime;
  const i = Math.max(0, segmentAt(t));
  for (let k = i; k < Math.min(i + 3, player.state.segments.length); k++) ensureSegment(k);
}

async function play() {
  if (!player.state || player.state.generation == null || player.playing) return;
  stopShuttle();
  player.playing = true;
  video.playbackRate = 1;
  $("play").textContent = "❚❚";
  await openSource();
  video.currentTime = timeOf(player.frame);
  feedAhead();
  try {
    await video.play();
  } catch (error) {
    console.warn("preview: play refused", error);
  }
}

function pause() {
  if (!player.playing) return;
  player.playing = false;
  $("play").textContent = "▶︎";
  video.pause();
  player.frame = frameAt(video.currentTime);
  showTime(player.frame);
  wantStill(player.frame); // the exact frame replaces the decoded one once it has loaded
  setWaiting(null);
}

function setWaiting(text) {
  $("waiting").hidden = !text;
  $("waiting").textContent = text || "";
}

video.addEventListener("playing", () => {
  if (player.playing) screen.classList.add("playing");
  setWaiting(null);
  if (player.stalls.since !== null) player.stalls.seconds += (performance.now() - player.stalls.since) / 1000;
  player.stalls.since = null;
});
video.addEventListener("waiting", () => {
  if (!player.playing) return;
  const i = segmentAt(video.currentTime);
  setWaiting(`waiting for segment ${i + 1} of ${player.state.segments.length} (rendering)…`);
  if (!screen.classList.contains("playing")) return; // the wait for the first picture is no stall
  player.stalls.count += 1;
  player.stalls.since = performance.now();
});
video.addEventListener("timeupdate", () => {
  if (!player.playing) return;
  const n = frameAt(video.currentTime);
  showTime(n);
  feedAhead();
});
video.addEventListener("ended", () => {
  pause();
});

// J: backwards in real time through exact frames (a browser cannot play backwards): every tick
// shows the frame the clock has reached, skipping those whose stills are not ready in time;
// each J doubles the speed (up to 8×), as in editors. K stops it.
function shuttleBack() {
  if (player.playing) pause();
  const rate = player.shuttle ? Math.min(player.shuttle.rate * 2, 8) : 1;
  stopShuttle();
  const origin = { frame: player.frame, time: performance.now() };
  player.shuttle = { rate, timer: setInterval(() => {
    const back = Math.floor(((performance.now() - origin.time) / 1000) * rate / frameSeconds());
    const n = Math.max(0, origin.frame - back);
    if (n !== player.frame) {
      player.frame = n;
      showTime(n);
      wantStill(n);
    }
    if (n === 0) stopShuttle();
  }, 1000 / 60) };
}

function stopShuttle() {
  if (player.shuttle) {
    clearInterval(player.shuttle.timer);
    tellPlayhead(timeOf(player.frame));
  }
  player.shuttle = null;
}

// L while playing: twice as fast each time (up to 8×); K or space back to 1× paused.
function faster() {
  if (!player.playing) return play();
  video.playbackRate = Math.min(video.playbackRate * 2, 8);
}

// ---- timeline -------------------------------------------------------------------------------

function movePlayhead(t) {
  const head = player.playhead;
  if (head && player.state.duration > 0) head.style.left = `${(100 * t) / player.state.duration}%`;
}

function loadTimeline(generation) {
  const frame = $("timeline");
  const scroll = frame.contentWindow && frame.contentDocument ? [frame.contentWindow.scrollX, frame.contentWindow.scrollY] : [0, 0];
  frame.onload = () => {
    const page = frame.contentDocument;
    const grid = page.querySelector(".grid");
    if (!grid) return;
    const head = page.createElement("i");
    head.style.cssText = "border-left:2px solid #ff4d4d;z-index:20;box-shadow:0 0 4px #ff4d4d";
    grid.appendChild(head);
    player.playhead = head;
    movePlayhead(timeOf(player.frame));
    frame.contentWindow.scrollTo(scroll[0], scroll[1]);
    page.querySelector(".board").addEventListener("click", (event) => {
      const box = grid.getBoundingClientRect();
      const x = (event.clientX - box.left) / box.width;
      if (x >= 0 && x <= 1) seekFrame(frameAt(x * player.state.duration));
    });
  };
  frame.src = `/timeline/${generation}`;
}

// ---- vars form ------------------------------------------------------------------------------

let varsShape = "";
function showVars(vars) {
  const form = $("vars");
  const shape = JSON.stringify(vars.map((v) => [v.name, v.type]));
  if (shape !== varsShape) {
    varsShape = shape;
    form.textContent = "";
    if (vars.length === 0) form.innerHTML = '<p class="none">This project has no vars.</p>';
    for (const v of vars) {
      const label = document.createElement("label");
      const name = document.createElement("span");
      name.textContent = `${v.name}${v.type ? ` (${v.type})` : ""}${v.description ? ` — ${v.description}` : ""}`;
      const input = document.createElement("input");
      input.name = v.name;
      input.type = v.type === "number" ? "number" : v.type === "boolean" ? "checkbox" : v.type === "color" ? "color" : "text";
      if (input.type === "number") input.step = "any";
      input.addEventListener(input.type === "text" || input.type === "number" ? "input" : "change", () => sendVar(input));
      label.append(name, input);
      form.append(label);
    }
  }
  for (const v of vars) {
    const input = form.elements[v.name];
    if (!input || input === document.activeElement) continue;
    if (input.type === "checkbox") input.checked = v.value === "true";
    else if (input.type === "color") input.value = /^#[0-9a-fA-F]{6}/.test(v.value) ? v.value.slice(0, 7) : "#000000";
    else input.value = v.value;
  }
}

let varsTimer = null;
const pendingVars = {};
function sendVar(input) {
  pendingVars[input.name] = input.type === "checkbox" ? String(input.checked) : input.value;
  clearTimeout(varsTimer);
  varsTimer = setTimeout(() => {
    const body = JSON.stringify(pendingVars);
    for (const k of Object.keys(pendingVars)) delete pendingVars[k];
    fetch("/api/vars", { method: "POST", headers: { "Content-Type": "application/json" }, body });
  }, 250);
}

// ---- state ----------------------------------------------------------------------------------

function applyState(state) {
  const old = player.state;
  player.state = state;
  document.title = `${state.project} · Reel preview`;
  $("project").textContent = state.project;
  const diagnostics = $("diagnostics");
  diagnostics.hidden = !state.diagnostics;
  diagnostics.textContent = state.diagnostics || "";
  // Warnings of the picture shown; a failing project's text holds its own.
  const warnings = $("warnings");
  warnings.hidden = !state.warnings || !!state.diagnostics;
  warnings.textContent = state.warnings || "";
  $("status").textContent = state.diagnostics ? "the project has problems: showing the last good picture" : "";
  if (state.generation == null) return;
  if (old && old.generation === state.generation) return;
  screen.style.aspectRatio = `${state.width} / ${state.height}`;
  $("scrub").max = state.frames - 1;
  showVars(state.vars);
  loadTimeline(state.generation);
  const reshaped = old && old.generation != null && (old.width !== state.width || old.height !== state.height || old.hasAudio !== state.hasAudio);
  if (reshaped && player.playing) pause();
  if (reshaped) closeSource();
  if (player.source && player.source.readyState === "open" && !player.buffer.updating) player.source.duration = state.duration;
  dropChanged();
  player.frame = Math.min(player.frame, state.frames - 1);
  if (player.playing) {
    feedAhead();
  } else {
    showTime(player.frame);
    wantStill(player.frame);
    toldSegment = -1;
    tellPlayhead(timeOf(player.frame));
  }
}

async function poll() {
  let version = -1;
  for (;;) {
    try {
      const response = await fetch(`/api/state?after=${version}`);
      if (!response.ok) throw new Error(String(response.status));
      const state = await response.json();
      if (state.version !== version) {
        version = state.version;
        applyState(state);
      }
    } catch (error) {
      $("status").textContent = "the preview server is not answering";
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

// ---- controls -------------------------------------------------------------------------------

$("play").onclick = () => (player.playing ? pause() : play());
$("start").onclick = () => seekFrame(0);
$("back").onclick = () => seekFrame(player.frame - 1);
$("forward").onclick = () => seekFrame(player.frame + 1);
$("scrub").oninput = (event) => seekFrame(Number(event.target.value));

document.addEventListener("keydown", (event) => {
  if (!player.state || event.target.closest("form")) return;
  const second = Math.round(1 / frameSeconds());
  const keys = {
    " ": () => (player.playing ? pause() : play()),
    k: () => { stopShuttle(); pause(); },
    l: () => faster(),
    j: () => shuttleBack(),
    ArrowLeft: () => { stopShuttle(); seekFrame(player.frame - (event.shiftKey ? second : 1)); },
    ArrowRight: () => { stopShuttle(); seekFrame(player.frame + (event.shiftKey ? second : 1)); },
    Home: () => seekFrame(0),
    End: () => seekFrame(player.state.frames - 1),
  };
  const action = keys[event.key.length === 1 ? event.key.toLowerCase() : event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

poll();
