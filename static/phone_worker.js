// The phone's own Python, in a worker so the page stays quick while it starts: Pyodide runs
// the server's scorers, forms and templates (phone/), fetched from this Tablescore and kept
// by the service worker. Each message is a question for phone.answer; each reply its answer.
let answering = null;

async function boot({ runtime, python }) {
  const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: runtime });
  const zip = await (await fetch(python)).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/tablescore" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/tablescore')");
  return pyodide.pyimport("phone").answer;
}

self.addEventListener("message", async (event) => {
  const { id, boot: where, question } = event.data;
  try {
    if (where) {
      answering = answering || boot(where);
      await answering;
      self.postMessage({ id, answer: "{}" });
      return;
    }
    const answer = (await answering)(JSON.stringify(question));
    self.postMessage({ id, answer });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
