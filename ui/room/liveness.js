// The board's liveness banner (ui/room/liveness.py). Runs in the browser, so it still works when the
// server is gone. Installed once per browser tab; a later run of the same script only hands over new
// texts (the session's language may have changed). Every half second it reads the heartbeat that the
// board's last refresh left in the page (.evallib-liveness-beat: data-beat changes on each refresh,
// data-time is the refresh's time as the board shows it, data-period the refresh period in seconds)
// and, once a period, asks the server's health endpoint. No new heartbeat for two periods, or two
// health checks failed in a row: a banner over the page says since when the board is not live.
// A fresh heartbeat with the server answering again: the banner says so, then fades.
(function (config) {
  "use strict";
  const existing = window.__evallibLiveness;
  if (existing) {
    existing.config = config;
    return;
  }
  const state = {config: config, beat: null, seenAt: Date.now(), time: "", failures: 0, checking: false,
                 checkedAt: 0, down: false, since: "", fade: null};
  window.__evallibLiveness = state;

  const banner = document.createElement("div");
  banner.id = "evallib-liveness-banner";
  banner.setAttribute("role", "alert");
  banner.setAttribute("aria-live", "assertive");
  banner.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:1000100;padding:1.2rem 2rem;" +
    "font-size:2rem;font-weight:700;line-height:1.3;text-align:center;color:#fff;" +
    "box-shadow:0 4px 16px rgba(0,0,0,.35);transition:opacity 1s ease;pointer-events:none;";
  banner.hidden = true;
  document.body.appendChild(banner);

  function show(kind, text) {
    if (state.fade !== null) {
      clearTimeout(state.fade);
      state.fade = null;
    }
    banner.dataset.state = kind;
    banner.textContent = text;
    banner.style.background = kind === "back" ? "#1b7f3b" : "#b3261e";
    banner.style.opacity = "1";
    banner.hidden = false;
  }

  function hide() {
    banner.hidden = true;
    delete banner.dataset.state;
  }

  function fill(name) {
    return state.config.texts[name].split("{time}").join(state.since || state.time);
  }

  async function check(timeoutMs) {
    state.checking = true;
    try {
      const answer = await fetch(state.config.health, {cache: "no-store", signal: AbortSignal.timeout(timeoutMs)});
      state.failures = answer.ok ? 0 : state.failures + 1;
    } catch (error) {
      state.failures += 1;
    } finally {
      state.checking = false;
    }
  }

  function tick() {
    const beats = document.querySelectorAll(".evallib-liveness-beat");
    const beat = beats[beats.length - 1];
    const now = Date.now();
    if (!beat) {  // no board on the page (another page of the app): nothing to watch
      if (state.down || banner.dataset.state === "back") hide();
      state.down = false;
      state.beat = null;
      return;
    }
    const period = (Number(beat.dataset.period) || 3) * 1000;
    if (beat.dataset.beat !== state.beat) {
      state.beat = beat.dataset.beat;
      state.seenAt = now;
      state.time = beat.dataset.time || "";
    }
    if (!state.checking && now - state.checkedAt >= period) {
      state.checkedAt = now;
      check(Math.max(1000, Math.min(period, 5000)));
    }
    const unreachable = state.failures >= 2;
    if (unreachable || now - state.seenAt > 2 * period) {
      if (!state.down) {
        state.down = true;
        state.since = state.time;
      }
      show("down", fill(unreachable ? "down" : "stalled"));
    } else if (state.down) {
      state.down = false;
      state.since = "";
      show("back", fill("back"));
      state.fade = setTimeout(function () {
        banner.style.opacity = "0";
        state.fade = setTimeout(hide, 1000);
      }, 5000);
    }
  }

  // A tab brought back to the front has had its timers slowed down: wait for a fresh refresh.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) state.seenAt = Date.now();
  });
  setInterval(tick, 500);
})(__CONFIG__);
