// hud's page: the live part is redrawn from the server's event stream;
// each button posts its action with the page's CSRF token.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="hud-csrf"]').content;
  const live = document.getElementById("live");
  const note = document.getElementById("note");
  const conn = document.getElementById("conn");

  function say(text, bad) {
    note.textContent = text;
    note.hidden = !text;
    note.className = bad ? "note bad" : "note";
  }

  async function post(path, fields) {
    const body = new URLSearchParams(fields);
    const res = await fetch(path, {
      method: "POST",
      headers: { "X-Hud-CSRF": csrf },
      body: body,
      credentials: "same-origin",
    });
    const text = (await res.text()).trim();
    say(text, !res.ok);
  }

  live.addEventListener("click", function (ev) {
    const b = ev.target.closest("button");
    if (!b) return;
    b.disabled = true;
    if (b.dataset.choice !== undefined) {
      post("/answer", { id: b.dataset.id, digest: b.dataset.digest, choice: b.dataset.choice });
    } else if (b.dataset.key !== undefined) {
      post("/click", { key: b.dataset.key });
    }
  });

  function connect() {
    const es = new EventSource("/events");
    es.addEventListener("update", function (ev) {
      live.innerHTML = ev.data;
      conn.textContent = "live";
      conn.className = "conn";
    });
    es.onerror = function () {
      conn.textContent = "reconnecting…";
      conn.className = "conn off";
    };
  }
  connect();
})();
