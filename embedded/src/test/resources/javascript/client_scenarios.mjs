// What the official Kubernetes JavaScript client (@kubernetes/client-node) observes of an API server,
// one JSON line per step.
//
// Run by NodeClientRealApiServerTest against the embedded server and a real kube-apiserver, with the
// peer kubernetes-node's node (which names its packages in MUSTER_PEER_NODE_MODULES):
//     node client_scenarios.mjs KUBECONFIG NAMESPACE
// Each server must be fresh in NAMESPACE; the lines of the two runs are compared.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const k8s = await import(pathToFileURL(join(process.env.MUSTER_PEER_NODE_MODULES, '@kubernetes/client-node/dist/index.js')).href);
const [kubeconfigFile, namespace] = process.argv.slice(2);
const kubeconfig = new k8s.KubeConfig();
kubeconfig.loadFromFile(kubeconfigFile);
const core = kubeconfig.makeApiClient(k8s.CoreV1Api);
const path = `/api/v1/namespaces/${namespace}/configmaps`;

function observe(step, value) {
    // keys sorted at every level, so that two servers' lines compare as text
    const sorted = (v) => Array.isArray(v) ? v.map(sorted)
        : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
    console.log(JSON.stringify({ step, value: sorted(value) }));
}

async function refusal(call) {
    try {
        await call();
        return 'no error';
    } catch (e) {
        const body = typeof e.body === 'string' && e.body ? JSON.parse(e.body) : (e.body ?? {});
        return { code: e.code, kind: body.kind, reason: body.reason, message: body.message };
    }
}

const names = (list) => list.items.map((item) => item.metadata.name).sort();
const patch = (strategy) => k8s.setHeaderOptions('Content-Type', strategy);

// a plain object without kind or apiVersion, as users write them: the server takes both from the path
const created = await core.createNamespacedConfigMap({ namespace,
    body: { metadata: { name: 'js-settings', labels: { app: 'js' } }, data: { a: '1' } } });
observe('create without kind', { kind: created.kind, apiVersion: created.apiVersion, data: created.data,
    'uid set': Boolean(created.metadata.uid), 'resourceVersion set': Boolean(created.metadata.resourceVersion) });

const listed = await core.listNamespacedConfigMap({ namespace, labelSelector: 'app=js' });
observe('list', { kind: listed.kind, apiVersion: listed.apiVersion, names: names(listed) });
const since = listed.metadata.resourceVersion;
observe('set-based selector', names(await core.listNamespacedConfigMap({ namespace, labelSelector: 'app in (js),app notin (other)' })));
observe('field selector', names(await core.listNamespacedConfigMap({ namespace, fieldSelector: 'metadata.name=js-settings' })));

observe('strategic merge patch', (await core.patchNamespacedConfigMap({ name: 'js-settings', namespace, body: { data: { b: '2' } } },
    patch(k8s.PatchStrategy.StrategicMergePatch))).data);
observe('merge patch', (await core.patchNamespacedConfigMap({ name: 'js-settings', namespace, body: { data: { b: null } } },
    patch(k8s.PatchStrategy.MergePatch))).data);
observe('json patch', (await core.patchNamespacedConfigMap({ name: 'js-settings', namespace,
    body: [{ op: 'replace', path: '/data/a', value: '10' }] }, patch(k8s.PatchStrategy.JsonPatch))).data);
const applied = await core.patchNamespacedConfigMap({ name: 'js-applied', namespace, fieldManager: 'js-client', force: true,
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'js-applied', labels: { app: 'js' } }, data: { c: '3' } } },
    patch(k8s.PatchStrategy.ServerSideApply));
observe('server-side apply', { data: applied.data,
    managers: applied.metadata.managedFields.map((field) => [field.manager, field.operation]) });

observe('get missing', await refusal(() => core.readNamespacedConfigMap({ name: 'missing', namespace })));
observe('create existing', await refusal(() => core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'js-settings' } } })));
observe('unknown field selector', await refusal(() => core.listNamespacedConfigMap({ namespace, fieldSelector: 'data.a=1' })));

// Watch from the list's resourceVersion: every change since, then the server ends the stream
const replayed = await new Promise((resolve, reject) => {
    const events = [];
    new k8s.Watch(kubeconfig).watch(path, { labelSelector: 'app=js', resourceVersion: since, timeoutSeconds: 5 },
        (type, object) => events.push([type, object.metadata.name, object.data ?? null]),
        (error) => error ? reject(error) : resolve(events)).catch(reject);
});
observe('watch from a resourceVersion', replayed);

// an informer (list, then watch): the current objects, then a create, an update and a delete made
// while it watches, each made once the informer has shown the one before (no timing decides)
const informed = await new Promise((resolve, reject) => {
    const events = [];
    const informer = k8s.makeInformer(kubeconfig, path, () => core.listNamespacedConfigMap({ namespace, labelSelector: 'app=js' }), 'app=js');
    const step = (type, object) => {
        events.push([type, object.metadata.name, object.data ?? null]);
        const next = { 'add js-settings': () => core.createNamespacedConfigMap({ namespace,
                               body: { metadata: { name: 'js-live', labels: { app: 'js' } }, data: { d: '4' } } }),
                       'add js-live': () => core.patchNamespacedConfigMap({ name: 'js-live', namespace, body: { data: { d: '5' } } },
                               patch(k8s.PatchStrategy.MergePatch)),
                       'update js-live': () => core.deleteNamespacedConfigMap({ name: 'js-live', namespace }) }[`${type} ${object.metadata.name}`];
        if (next) {
            next().catch(reject);
        }
        if (type === 'delete' && object.metadata.name === 'js-live') {
            // not informer.stop(): client-node 1.4.0 then reports its own AbortError to the error callbacks,
            // on kube-apiserver as on the embedded server (informer_stop.mjs); the process exits at the end instead
            resolve(events);
        }
    };
    informer.on('add', (object) => step('add', object));
    informer.on('update', (object) => step('update', object));
    informer.on('delete', (object) => step('delete', object));
    informer.on('error', reject);
    informer.start().catch(reject);
});
observe('informer', informed);

const deleted = await core.deleteNamespacedConfigMap({ name: 'js-settings', namespace });
observe('delete', { kind: deleted.kind, status: deleted.status ?? null });
process.exit(0);
