// Pairing: the secret is in the link's fragment, which no server and no
// log ever sees; it is posted once, then wiped from the address bar.
"use strict";
(async function () {
  const out = document.getElementById("pairing");
  const secret = location.hash.slice(1);
  history.replaceState(null, "", "/pair");
  if (!secret) {
    out.textContent = "This link holds no pairing code. Run hud serve --pair again.";
    return;
  }
  const res = await fetch("/pair", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ secret: secret }),
    credentials: "same-origin",
  });
  if (res.ok) {
    location.replace("/");
    return;
  }
  out.textContent = (await res.text()).trim();
  out.className = "note bad";
})();
