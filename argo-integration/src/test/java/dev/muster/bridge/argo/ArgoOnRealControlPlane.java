package dev.muster.bridge.argo;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Module;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.peers.CustomResourceDefinitions;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.Kwok;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import dev.muster.runtime.KubernetesModule;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeModule;
import dev.muster.runtime.RuntimeOptions;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Argo beside a real control plane, as a cluster runs it: Argo's CRDs (the minimal ones Argo installs),
 * the real workflow controller (peer {@code argo}) watching the {@code default} namespace, KWOK (peer
 * {@code kwok}) running the pods bound to the control plane's nodes, and Muster's runtime with
 * {@link ArgoBridgeModule}, the only scheduler. Closing stops them in the reverse order.
 */
final class ArgoOnRealControlPlane implements AutoCloseable {
    static final String NAMESPACE = "default";

    private final PeerProcesses peers = new PeerProcesses();
    private final Path logs;
    private KubernetesRuntime runtime;

    private ArgoOnRealControlPlane(Path logs) {
        this.logs = logs;
    }

    static ArgoOnRealControlPlane start(RealControlPlane controlPlane, Path logs) throws InterruptedException {
        return start(controlPlane, logs, List.of());
    }

    /** With more modules in Muster's runtime beside the bridge's (its Argo Server settings, say). */
    static ArgoOnRealControlPlane start(RealControlPlane controlPlane, Path logs, List<Module> more) throws InterruptedException {
        ArgoOnRealControlPlane argo = new ArgoOnRealControlPlane(logs);
        try {
            argo.startAll(controlPlane, more);
        } catch (InterruptedException | RuntimeException e) {
            argo.close();
            throw e;
        }
        return argo;
    }

    String peerLogs() {
        return peers.tails(40);
    }

    /**
     * What Argo's controller and server need before they start (its CRDs served, its ConfigMap), and the PodGroup CRD
     * Muster's runtime lists; each written so that doing it twice changes nothing.
     */
    static void prepareCluster(KubernetesClient client) {
        CustomResourceDefinitions crds = new CustomResourceDefinitions(client);
        crds.install(ArgoBridgeModule.class, ArgoBridgeModule.CRDS);
        // Muster's runtime lists these PodGroups too, and waits until it can
        crds.install(CustomResourceDefinitions.class, CustomResourceDefinitions.SCHEDULER_PLUGINS_POD_GROUPS);
        // the controller and the server read it; Argo's metrics servers default to port 9090, which another test on the machine may hold
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder()
                .withNewMetadata().withName("workflow-controller-configmap").withNamespace(NAMESPACE).endMetadata()
                .withData(Map.of("metricsConfig", "enabled: false\n", "telemetryConfig", "enabled: false\n"))
                .build()).serverSideApply();
    }

    private void startAll(RealControlPlane controlPlane, List<Module> more) throws InterruptedException {
        KubernetesClient client = controlPlane.client();
        prepareCluster(client);
        Map<String, InstalledPeer> installed = PeerInstaller.locate().install(List.of("argo"));
        Kwok.start(peers, controlPlane, logs, ArgoOnRealControlPlane.class, "/kwok/stages.yaml");
        String kubeconfig = controlPlane.kubeconfig().toString();
        peers.start(List.of(installed.get("argo").executable().toString(), "--kubeconfig", kubeconfig, "--namespaced",
                "--managed-namespace", NAMESPACE, "--loglevel", "info"), Map.of("LEADER_ELECTION_DISABLE", "true",
                // a workflow's steps 1 s apart instead of Argo's default 10 s, as muster up and Argo's own development setup run it
                "DEFAULT_REQUEUE_TIME", "1s"),
                logs.resolve("workflow-controller.log"));
        RuntimeOptions options = new RuntimeOptions(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text(), Set.of("muster"),
                Duration.ofMillis(200), Optional.empty());
        List<Module> modules = new ArrayList<>(List.of(new EngineModule(), new KubernetesModule(client), new RuntimeModule(options),
                new ArgoBridgeModule(), new AbstractModule() {
                    @Override
                    protected void configure() {
                        bind(Clock.class).toInstance(Clock.systemUTC());
                    }
                }));
        modules.addAll(more);
        runtime = Guice.createInjector(modules).getInstance(KubernetesRuntime.class);
        runtime.start();
    }

    @Override
    public void close() {
        if (runtime != null) {
            try {
                runtime.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        peers.close();
    }
}
