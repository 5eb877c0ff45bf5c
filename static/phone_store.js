// The matches this phone scores alone, kept in its own storage (IndexedDB) until the server
// has them: each as the table entered it, its log of changes, and how far it has been sent.
// The service worker starts one from a new-match form it could not send; the phone's page
// (static/alone.js) scores, shows and sends them. Both load this file.
"use strict";

self.TablescorePhone = (() => {
  const NAME = "tablescore-phone";
  const STORE = "matches";

  // Opened once and kept open: a round is scored in a few milliseconds, opening takes more.
  let connection = null;
  function opened() {
    connection = connection || new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "uid" });
      request.onsuccess = () => {
        // Another tab upgrading the database: let go, and open it again at the next call.
        request.result.onversionchange = () => {
          request.result.close();
          connection = null;
        };
        resolve(request.result);
      };
      request.onerror = () => {
        connection = null;
        reject(request.error);
      };
    });
    return connection;
  }

  async function run(mode, act) {
    const db = await opened();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = act(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  }

  return {
    /** Every match kept on this phone, oldest first. */
    all: async () => (await run("readonly", (store) => store.getAll())).sort((a, b) => a.at.localeCompare(b.at)),
    get: (uid) => run("readonly", (store) => store.get(uid)),
    put: (match) => run("readwrite", (store) => store.put(match)),
    drop: (uid) => run("readwrite", (store) => store.delete(uid)),
    /** A new match from its form as posted, read by the phone's Python when its page opens. */
    begin: (game, layout, body) => {
      const uid = crypto.randomUUID().replaceAll("-", "");
      const at = new Date().toISOString();
      const match = { uid, game, layout, body, at, state: "starting", rounds: [], removed: [], log: [], server: null };
      return run("readwrite", (store) => store.add(match)).then(() => uid);
    },
  };
})();
