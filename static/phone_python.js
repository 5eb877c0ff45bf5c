// The phone's own Python, asked from a page: a worker (static/phone_worker.js) starts Pyodide
// and the phone's Python zip once, then answers each question of phone.answer in turn. The
// phone's page (static/alone.js) and a match page counting rounds kept on the phone
// (static/phone_waiting.js) both ask it through this.
"use strict";

self.TablescorePython = (worker, runtime, python) => {
  const answering = new Worker(worker, { type: "module" });
  const waiting = new Map();
  let asked = 0;
  answering.addEventListener("message", (event) => {
    const { id, answer, error } = event.data;
    const reply = waiting.get(id);
    waiting.delete(id);
    if (error) reply.reject(new Error(error));
    else reply.resolve(JSON.parse(answer));
  });
  function call(message) {
    asked += 1;
    const id = asked;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      answering.postMessage({ id, ...message });
    });
  }
  const booted = call({ boot: { runtime, python } });
  /** Ask phone.answer one question; the answer, or the Python error it raised. */
  return async (question) => {
    await booted;
    return call({ question });
  };
};
