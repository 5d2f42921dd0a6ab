import ace from 'ace-builds';

// Ace's mode, theme and extension files register themselves on the global `ace`: expose it before they load.
(window as unknown as { ace: typeof ace }).ace = ace;
// Everything Ace needs is bundled: never let it fetch modules or workers from a path or a CDN
// (the editor itself is created with useWorker: false).
ace.config.set('basePath', '');
ace.config.set('loadWorkerFromBlob', false);

export default ace;
