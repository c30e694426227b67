// One search thread of the browser build: a Web Worker with its own copy
// of jigsolve's WebAssembly module. The page posts {id, request} (a request
// as crates/wasm describes it); the worker posts {id, event} for each event
// of a search and {id, answer} at its end. A search runs to its end (or the
// page terminates the worker: that is Stop).

let exports = null;
let current = null;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function text(ptr, len) {
  return decoder.decode(new Uint8Array(exports.memory.buffer, ptr, len));
}

const ready = (async () => {
  const bytes = await (await fetch(new URL("jigsolve.wasm", self.location))).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: {
      jigsolve_event: (ptr, len) => postMessage({ id: current, event: JSON.parse(text(ptr, len)) }),
      jigsolve_now_ms: () => performance.now(),
    },
  });
  exports = instance.exports;
})();

onmessage = async (message) => {
  await ready;
  const { id, request } = message.data;
  current = id;
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = exports.jigsolve_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  const packed = exports.jigsolve_request(ptr, bytes.length);
  const at = Number(packed & 0xffffffffn);
  const len = Number(packed >> 32n);
  const answer = JSON.parse(text(at, len));
  exports.jigsolve_free(at, len);
  postMessage({ id, answer });
};
