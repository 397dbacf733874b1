package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.inject.Module;
import dev.muster.embedded.ArgoExecutorPods;
import dev.muster.embedded.KubeletEndpoint;
import dev.muster.embedded.NodePool;
import dev.muster.embedded.SimulatedKubelet;
import dev.muster.embedded.SimulatedNodes;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.runtime.VolcanoJobsModule;
import dev.muster.peers.PeerException;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code muster up} runs in one JVM: the embedded API server, its simulated nodes and kubelet,
 * the scheduler connected to it as {@code muster run} would be, and Volcano's Job and JobFlow
 * controllers (no Volcano runs here, so nothing else would). {@code muster demo} starts the same thing.
 * With {@link ApiServerChoice#REAL} the same runs on a real kube-apiserver and etcd instead, with
 * {@link DefaultServiceAccounts} standing in for the one controller-manager duty pods cannot do without.
 */
final class EmbeddedCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedCluster.class);
    /** The scheduler name pods ask for. */
    static final String SCHEDULER_NAME = "muster";
    /**
     * Every scheduler name Muster serves here, as the cluster's only scheduler: its own; Volcano's, which
     * Volcano Jobs and their pods ask for ({@code schedulerName: volcano}), as no Volcano scheduler runs
     * here; and the API server's default, so that manifests and operators written for any cluster (a
     * Deployment, a batch/v1 Job, a pod that names no scheduler) run unchanged. {@code muster run}
     * answers only to the names it is given.
     */
    static final ImmutableSet<String> SCHEDULER_NAMES = ImmutableSet.of(SCHEDULER_NAME, "volcano", SchedulingApi.DEFAULT_SCHEDULER_NAME);

    private final UpApiServer server;
    private final KubernetesClient client;
    private final Optional<SimulatedKubelet> kubelet;
    private final Optional<DefaultServiceAccounts> serviceAccounts;
    private final KubernetesRuntime runtime;
    private final ImmutableList<String> nodes;

    private EmbeddedCluster(UpApiServer server, KubernetesClient client, Optional<SimulatedKubelet> kubelet,
            Optional<DefaultServiceAccounts> serviceAccounts, KubernetesRuntime runtime, List<String> nodes) {
        this.server = server;
        this.client = client;
        this.kubelet = kubelet;
        this.serviceAccounts = serviceAccounts;
        this.runtime = runtime;
        this.nodes = ImmutableList.copyOf(nodes);
    }

    /** How to start one. */
    record Options(int port, List<NodePool> pools, Optional<Path> nodesFile, SchedulerConfigText config, Duration period,
            boolean kubelet, ImmutableList<Module> bridges, boolean scheduler, ApiServerChoice apiServer) {
        Options(int port, List<NodePool> pools, Optional<Path> nodesFile, SchedulerConfigText config, Duration period, boolean kubelet) {
            this(port, pools, nodesFile, config, period, kubelet, ImmutableList.of());
        }

        Options(int port, List<NodePool> pools, Optional<Path> nodesFile, SchedulerConfigText config, Duration period, boolean kubelet,
                ImmutableList<Module> bridges) {
            this(port, pools, nodesFile, config, period, kubelet, bridges, true, ApiServerChoice.EMBEDDED);
        }

        /** The same cluster without Muster's scheduling loop: the job controllers and bridges still run, nothing binds. */
        Options withoutScheduler() {
            return new Options(port, pools, nodesFile, config, period, kubelet, bridges, false, apiServer);
        }

        /** The same cluster on another API server; {@link #port()} means nothing to a real one. */
        Options withApiServer(ApiServerChoice choice) {
            return new Options(port, pools, nodesFile, config, period, kubelet, bridges, scheduler, choice);
        }

        Options {
            pools = ImmutableList.copyOf(pools);
            bridges = ImmutableList.copyOf(bridges);
            requireNonNull(nodesFile, "nodesFile is null");
            requireNonNull(config, "config is null");
            requireNonNull(period, "period is null");
            requireNonNull(apiServer, "apiServer is null");
        }
    }

    /**
     * Serves (or starts kube-apiserver and etcd), creates the nodes, starts the kubelet, then the runtime
     * with Volcano's job controllers and the options' bridges (assembled as {@code muster run
     * --job-controllers} assembles it), after creating the CRDs their controllers need; on failure, stops
     * what started.
     *
     * @throws IOException when the nodes file cannot be read
     * @throws dev.muster.peers.PeerException when the real API server cannot be installed or started
     */
    static EmbeddedCluster start(Options options, Clock clock) throws IOException, InterruptedException {
        UpApiServer server = UpApiServer.start(options.apiServer(), options.port());
        KubernetesClient client = null;
        SimulatedKubelet kubelet = null;
        DefaultServiceAccounts serviceAccounts = null;
        KubernetesRuntime runtime = null;
        try {
            client = server.newClient();
            if (server.choice() == ApiServerChoice.REAL) {
                serviceAccounts = new DefaultServiceAccounts(client);
                serviceAccounts.start();
            }
            Optional<KubeletEndpoint> endpoint = Optional.empty();
            if (options.kubelet()) {
                kubelet = new SimulatedKubelet(client, clock);
                if (server.choice() == ApiServerChoice.REAL) {
                    // kube-apiserver asks the node's kubelet for a pod's log (kubectl logs, Airflow's KubernetesPodOperator)
                    endpoint = Optional.of(kubelet.serveApi());
                }
            }
            List<String> nodes = new ArrayList<>(SimulatedNodes.create(client, options.pools(), Clock.systemUTC(), endpoint));
            if (options.nodesFile().isPresent()) {
                nodes.addAll(SimulatedNodes.createFromFile(client, options.nodesFile().get(), Clock.systemUTC(), endpoint));
            }
            if (kubelet != null) {
                kubelet.start();
            }
            RuntimeOptions runtimeOptions = new RuntimeOptions(options.config().source(), options.config().text(), SCHEDULER_NAMES,
                    options.period(), Optional.empty());
            runtime = RuntimeAssembly.create(client, clock, options.scheduler() ? runtimeOptions : runtimeOptions.withoutScheduling(),
                    ImmutableList.<Module>builder().add(new VolcanoJobsModule()).addAll(options.bridges()).build());
            createAbsent(client, runtime.customResourceDefinitions());
            server.awaitServed(client);
            if (!options.scheduler()) {
                // Muster's scheduler creates it when it schedules (as Volcano's does); the job controllers' PodGroups name it
                createDefaultQueue(client);
            }
            runtime.start();
            return new EmbeddedCluster(server, client, Optional.ofNullable(kubelet), Optional.ofNullable(serviceAccounts), runtime, nodes);
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (runtime != null) {
                stopQuietly(runtime);
            }
            if (kubelet != null) {
                kubelet.close();
            }
            if (serviceAccounts != null) {
                serviceAccounts.close();
            }
            if (client != null) {
                client.close();
            }
            server.close();
            throw e;
        }
    }

    /** Creates each CRD the server does not have yet (its own Volcano CRDs are there from the start). */
    private static void createAbsent(KubernetesClient client, List<CustomResourceDefinitions> definitions) throws IOException {
        for (CustomResourceDefinitions definition : definitions) {
            try (InputStream in = definition.open()) {
                for (HasMetadata crd : client.load(in).items()) {
                    if (client.resource(crd).get() == null) {
                        client.resource(crd).create();
                    }
                }
            }
        }
    }

    private static void createDefaultQueue(KubernetesClient client) {
        ResourceDefinitionContext queues = new ResourceDefinitionContext.Builder().withGroup("scheduling.volcano.sh").withVersion("v1beta1")
                .withKind("Queue").withPlural("queues").withNamespaced(false).build();
        if (client.genericKubernetesResources(queues).withName("default").get() == null) {
            client.genericKubernetesResources(queues).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion("scheduling.volcano.sh/v1beta1").withKind("Queue")
                    .withNewMetadata().withName("default").endMetadata()
                    .withAdditionalProperties(java.util.Map.of("spec", java.util.Map.of("weight", 1, "reclaimable", true)))
                    .build()).create();
        }
    }

    private static void stopQuietly(KubernetesRuntime runtime) {
        try {
            runtime.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Has the kubelet run the pods of Argo's resource templates for real with Argo's executor ({@link ArgoExecutorPods}),
     * their files in a temporary directory deleted when the cluster stops.
     *
     * <p>Where the executor cannot run as a local process on this machine (no {@code unshare}, no user namespaces: macOS,
     * a container without privileges), the rest of {@code muster up --peer argo} still works: a warning says why once,
     * and the kubelet fails each resource template's pod with that reason.
     */
    void runArgoExecutors(Path argoexec, Path kubeconfig) {
        SimulatedKubelet running = kubelet.orElseThrow(() -> new PeerException("--peer argo: no kubelet runs to run Argo's executor"));
        try {
            running.runArgoExecutors(ArgoExecutorPods.start(argoexec, kubeconfig, Files.createTempDirectory("muster-up-pods-")));
        } catch (IOException | IllegalStateException e) {
            String why = "--peer argo: Argo's executor cannot run on this machine, so the pods of resource templates fail: " + e.getMessage();
            log.warn("{}", why);
            running.refuseArgoExecutors(why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PeerException("--peer argo: interrupted while checking that Argo's executor runs here", e);
        }
    }

    UpApiServer server() {
        return server;
    }

    /** A client of the embedded server, shared; callers do not close it. */
    KubernetesClient client() {
        return client;
    }

    ImmutableList<String> nodes() {
        return nodes;
    }

    /** Stops the job controllers, the scheduler after its cycle in progress, then the kubelet and the server; an interrupt stays set. */
    @Override
    public void close() {
        try {
            runtime.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            kubelet.ifPresent(SimulatedKubelet::close);
            serviceAccounts.ifPresent(DefaultServiceAccounts::close);
            client.close();
            server.close();
        }
    }
}
