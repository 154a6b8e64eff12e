// Live parts of a page: an element with data-live-url is replaced every data-live-seconds by
// the HTML the server renders at that URL, so scores and standings move without a reload.
// The server leaves data-live-url out once nothing can change (a finished match), which stops
// the polling. Open <details> stay open across a refresh; hidden tabs do not poll.
(function () {
  "use strict";

  var DEFAULT_SECONDS = 10;

  function delay(element) {
    var seconds = Number(element.getAttribute("data-live-seconds"));
    return (seconds > 0 ? seconds : DEFAULT_SECONDS) * 1000;
  }

  function openDetails(element) {
    var ids = [];
    element.querySelectorAll("details[id]").forEach(function (details) {
      if (details.open) {
        ids.push(details.id);
      }
    });
    return ids;
  }

  function swap(element, html) {
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    var fresh = holder.content.firstElementChild;
    if (!fresh || fresh.id !== element.id) {
      return element;
    }
    openDetails(element).forEach(function (id) {
      var details = fresh.querySelector("#" + CSS.escape(id));
      if (details) {
        details.open = true;
      }
    });
    element.replaceWith(fresh);
    return fresh;
  }

  function schedule(element) {
    window.setTimeout(function () {
      refresh(element);
    }, delay(element));
  }

  function refresh(element) {
    var url = element.getAttribute("data-live-url");
    if (!url) {
      return;
    }
    if (document.hidden) {
      schedule(element);
      return;
    }
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("refresh answered " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var current = swap(element, html);
        if (current.getAttribute("data-live-url")) {
          schedule(current);
        }
      })
      .catch(function () {
        schedule(element); // a dropped connection: try again later
      });
  }

  document.querySelectorAll("[data-live-url]").forEach(schedule);
})();
