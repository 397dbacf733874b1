// What the official Kubernetes JavaScript client (@kubernetes/client-node) observes when an informer
// is stopped while it watches: one JSON line per step, as client_scenarios.mjs prints them.
//
// Run by NodeClientRealApiServerTest against the embedded server and a real kube-apiserver, with the
// peer kubernetes-node's node (which names its packages in MUSTER_PEER_NODE_MODULES):
//     node informer_stop.mjs KUBECONFIG NAMESPACE
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const k8s = await import(pathToFileURL(join(process.env.MUSTER_PEER_NODE_MODULES, '@kubernetes/client-node/dist/index.js')).href);
const [kubeconfigFile, namespace] = process.argv.slice(2);
const kubeconfig = new k8s.KubeConfig();
kubeconfig.loadFromFile(kubeconfigFile);
const core = kubeconfig.makeApiClient(k8s.CoreV1Api);
const path = `/api/v1/namespaces/${namespace}/configmaps`;

function observe(step, value) {
    console.log(JSON.stringify({ step, value }));
}

// everything that reaches the program after stop(): the informer's error callbacks, and what nothing caught
const after = [];
let settled;
const seen = new Promise((resolve) => { settled = resolve; });
const record = (where) => (error) => {
    after.push([where, error?.name ?? null, error?.message ?? String(error)]);
    settled();
};
process.on('uncaughtException', record('uncaught exception'));
process.on('unhandledRejection', record('unhandled rejection'));

await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'js-stopped', labels: { app: 'js-stop' } } } });
const informer = k8s.makeInformer(kubeconfig, path,
    () => core.listNamespacedConfigMap({ namespace, labelSelector: 'app=js-stop' }), 'app=js-stop');
informer.on('error', record('error callback'));
// the informer lists (an add per object), then opens its watch; start() resolves once the watch's response began
const listed = new Promise((resolve) => informer.on('add', (object) => resolve(object.metadata.name)));
await informer.start();
observe('informer saw', await listed);
// stop() aborts the open watch request
await informer.stop();
observe('stop returned', true);
// what stop() leads to arrives on a later turn of the event loop; two seconds bound the wait if nothing does
await Promise.race([seen, new Promise((resolve) => setTimeout(resolve, 2000))]);
observe('after stop', after);
await core.deleteNamespacedConfigMap({ name: 'js-stopped', namespace });
process.exit(0);
