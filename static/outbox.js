// The outbox: rounds recorded while the server could not be reached, kept on the phone in the
// order they were entered until they are sent. The service worker puts them in; the pages show,
// send, fix and drop them. Both load this file.
"use strict";

self.TablescoreOutbox = (() => {
  const NAME = "tablescore";
  const STORE = "outbox";

  function opened() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function run(mode, act) {
    const db = await opened();
    try {
      return await new Promise((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = act(transaction.objectStore(STORE));
        transaction.oncomplete = () => resolve(request.result);
        transaction.onerror = () => reject(transaction.error);
      });
    } finally {
      db.close();
    }
  }

  return {
    /** Every kept round, oldest first: {id, url, body, at, state, message}. */
    all: () => run("readonly", (store) => store.getAll()),
    add: (item) => run("readwrite", (store) => store.add(item)),
    put: (item) => run("readwrite", (store) => store.put(item)),
    drop: (id) => run("readwrite", (store) => store.delete(id)),
    /** The server's answer; a proxy's 502 or 504 (deploy/Caddyfile: Tablescore down or
     * restarting, never its own answer) throws, as a network that is down does. */
    reached: (response) => {
      if (response.status === 502 || response.status === 504) throw new TypeError("server not reached");
      return response;
    },
  };
})();
