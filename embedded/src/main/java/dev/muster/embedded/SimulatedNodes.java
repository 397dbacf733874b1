package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Creates the nodes of the embedded cluster as a kubelet registers its node (kubelet v1.34's
 * {@code initialNode} and node status setters): the well-known labels ({@code kubernetes.io/hostname},
 * {@code kubernetes.io/os: linux}, {@code kubernetes.io/arch: amd64} and their {@code beta.} twins),
 * the controller-managed attach annotation, the {@code MemoryPressure}, {@code DiskPressure},
 * {@code PIDPressure} and {@code Ready} conditions with the kubelet's reasons and messages and heartbeat
 * times, addresses ({@code InternalIP}, {@code Hostname}), the kubelet endpoint and {@code nodeInfo};
 * with the resources and labels of their pool or file. {@link NodeHeartbeats} keeps them fresh.
 */
public final class SimulatedNodes {
    static final String OS = "linux";
    static final String ARCH = "amd64";
    private static final String HOSTNAME = "kubernetes.io/hostname";
    private static final String OS_LABEL = "kubernetes.io/os";
    private static final String ARCH_LABEL = "kubernetes.io/arch";
    private static final int KUBELET_PORT = 10250;
    private static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

    private SimulatedNodes() {}

    /** {@link #create(KubernetesClient, List, Clock)} with heartbeat times from the system clock. */
    public static List<String> create(KubernetesClient client, List<NodePool> pools) {
        return create(client, pools, Clock.systemUTC());
    }

    /** Creates every pool's nodes; pools sharing a prefix number their nodes on from each other. Returns the names. */
    public static List<String> create(KubernetesClient client, List<NodePool> pools, Clock clock) {
        return create(client, pools, clock, Optional.empty());
    }

    /**
     * {@link #create(KubernetesClient, List, Clock)}, the nodes reporting {@code kubelet}'s address as their
     * {@code InternalIP} and its port as their kubelet endpoint when it is given (a real kube-apiserver dials
     * that to read a pod's log); else each its own {@code InternalIP} and port 10250, which nothing dials.
     */
    public static List<String> create(KubernetesClient client, List<NodePool> pools, Clock clock, Optional<KubeletEndpoint> kubelet) {
        requireNonNull(kubelet, "kubelet is null");
        Map<String, Integer> next = new HashMap<>();
        List<String> names = new ArrayList<>();
        Instant now = clock.instant();
        for (NodePool pool : pools) {
            int first = next.getOrDefault(pool.prefix(), 1);
            for (int index = first; index < first + pool.count(); index++) {
                String name = pool.nodeName(index);
                register(client, served(node(name, pool, address(names.size() + 1), now), kubelet));
                names.add(name);
            }
            next.put(pool.prefix(), first + pool.count());
        }
        return names;
    }

    /** {@link #createFromFile(KubernetesClient, Path, Clock)} with heartbeat times from the system clock. */
    public static List<String> createFromFile(KubernetesClient client, Path file) throws IOException {
        return createFromFile(client, file, Clock.systemUTC());
    }

    /**
     * Creates the Node objects of a YAML or JSON file (other kinds in it are ignored), with the
     * well-known labels they do not set themselves, and the kubelet's four conditions unless they
     * state conditions of their own (a node written NotReady stays so). Returns the names.
     */
    public static List<String> createFromFile(KubernetesClient client, Path file, Clock clock) throws IOException {
        return createFromFile(client, file, clock, Optional.empty());
    }

    /**
     * {@link #createFromFile(KubernetesClient, Path, Clock)}, each node's {@code InternalIP} and kubelet endpoint
     * then {@code kubelet}'s when it is given, as in {@link #create(KubernetesClient, List, Clock, Optional)}.
     */
    public static List<String> createFromFile(KubernetesClient client, Path file, Clock clock, Optional<KubeletEndpoint> kubelet)
            throws IOException {
        requireNonNull(kubelet, "kubelet is null");
        List<String> names = new ArrayList<>();
        Instant now = clock.instant();
        try (InputStream input = Files.newInputStream(file)) {
            for (HasMetadata object : client.load(input).items()) {
                if (object instanceof Node node) {
                    register(client, served(asRegistered(node, now), kubelet));
                    names.add(node.getMetadata().getName());
                }
            }
        }
        return names;
    }

    /**
     * Creates the node. A real kube-apiserver's admission (TaintNodesByCondition) taints a new node
     * {@code node.kubernetes.io/not-ready:NoSchedule}; the node lifecycle controller lifts it once the node
     * reports Ready, and none runs beside {@code muster up}, so this does the same for a Ready node. The
     * embedded server adds no taint.
     */
    private static void register(KubernetesClient client, Node node) {
        Node created = client.resource(node).create();
        List<Taint> taints = created.getSpec() == null || created.getSpec().getTaints() == null ? List.of() : created.getSpec().getTaints();
        boolean askedNotReady = node.getSpec() != null && node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(SimulatedNodes::notReady);
        if (ready(node) && !askedNotReady && taints.stream().anyMatch(SimulatedNodes::notReady)) {
            client.resource(new NodeBuilder(created).editSpec()
                    .withTaints(taints.stream().filter(taint -> !notReady(taint)).toList()).endSpec().build()).update();
        }
    }

    /** The node with {@code kubelet}'s address as its {@code InternalIP} (added when it has none) and its port, if given. */
    private static Node served(Node node, Optional<KubeletEndpoint> kubelet) {
        if (kubelet.isEmpty()) {
            return node;
        }
        List<NodeAddress> addresses = new ArrayList<>();
        addresses.add(new NodeAddress(kubelet.get().address(), "InternalIP"));
        if (node.getStatus() != null && node.getStatus().getAddresses() != null) {
            node.getStatus().getAddresses().stream().filter(address -> !"InternalIP".equals(address.getType())).forEach(addresses::add);
        }
        return new NodeBuilder(node).editOrNewStatus().withAddresses(addresses)
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubelet.get().port()).endKubeletEndpoint().endDaemonEndpoints()
                .endStatus().build();
    }

    private static boolean notReady(Taint taint) {
        return NOT_READY_TAINT.equals(taint.getKey());
    }

    private static boolean ready(Node node) {
        return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus().getConditions().stream()
                .anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
    }

    static Node node(String name, NodePool pool, String address, Instant now) {
        Map<String, String> labels = new LinkedHashMap<>(wellKnownLabels(name, OS, ARCH));
        labels.put(SchedulingApi.POOL_LABEL, pool.prefix());
        labels.putAll(pool.labels());
        return new NodeBuilder()
                .withNewMetadata()
                    .withName(name)
                    .withLabels(labels)
                    .addToAnnotations("volumes.kubernetes.io/controller-managed-attach-detach", "true")
                .endMetadata()
                .withNewStatus()
                    .withCapacity(pool.allocatable())
                    .withAllocatable(pool.allocatable())
                    .withConditions(conditions(now))
                    .addNewAddress().withType("InternalIP").withAddress(address).endAddress()
                    .addNewAddress().withType("Hostname").withAddress(name).endAddress()
                    .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(KUBELET_PORT).endKubeletEndpoint().endDaemonEndpoints()
                    .withNodeInfo(nodeInfo(name, labels.get(OS_LABEL), labels.get(ARCH_LABEL)))
                .endStatus()
                .build();
    }

    private static Node asRegistered(Node node, Instant now) {
        String name = node.getMetadata().getName();
        NodeSystemInfo info = node.getStatus() == null ? null : node.getStatus().getNodeInfo();
        String os = info != null && info.getOperatingSystem() != null ? info.getOperatingSystem() : OS;
        String arch = info != null && info.getArchitecture() != null ? info.getArchitecture() : ARCH;
        Map<String, String> labels = new LinkedHashMap<>(wellKnownLabels(name, os, arch));
        if (node.getMetadata().getLabels() != null) {
            // the kubelet's --node-labels win over its defaults, as the file's labels do here
            labels.putAll(node.getMetadata().getLabels());
        }
        NodeBuilder registered = new NodeBuilder(node).editMetadata().withLabels(labels).endMetadata();
        if (node.getStatus() == null || node.getStatus().getConditions() == null || node.getStatus().getConditions().isEmpty()) {
            registered.editOrNewStatus().withConditions(conditions(now)).endStatus();
        }
        if (info == null) {
            registered.editOrNewStatus().withNodeInfo(nodeInfo(name, labels.get(OS_LABEL), labels.get(ARCH_LABEL))).endStatus();
        }
        return registered.build();
    }

    /** What the kubelet labels its node with (with its {@code beta.kubernetes.io/} twins of os and arch). */
    private static Map<String, String> wellKnownLabels(String name, String os, String arch) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("beta.kubernetes.io/arch", arch);
        labels.put("beta.kubernetes.io/os", os);
        labels.put(ARCH_LABEL, arch);
        labels.put(HOSTNAME, name);
        labels.put(OS_LABEL, os);
        return labels;
    }

    /** The kubelet's conditions of a healthy node, in the order its status setters append them. */
    static List<NodeCondition> conditions(Instant now) {
        return List.of(
                condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", now),
                condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", now),
                condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", now),
                condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", now));
    }

    private static NodeCondition condition(String type, String status, String reason, String message, Instant now) {
        return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastHeartbeatTime(timestamp(now)).withLastTransitionTime(timestamp(now)).build();
    }

    /** Identifiers made from the node's name, so a node looks the same on every start; versions say what is simulated. */
    private static NodeSystemInfo nodeInfo(String name, String os, String arch) {
        return new NodeSystemInfoBuilder()
                .withMachineID(uuid("machine", name).replace("-", ""))
                .withSystemUUID(uuid("system", name))
                .withBootID(uuid("boot", name))
                .withKernelVersion("muster-simulated")
                .withOsImage("Muster simulated node")
                .withContainerRuntimeVersion("muster://" + Discovery.GIT_VERSION)
                .withKubeletVersion(Discovery.GIT_VERSION)
                // deprecated, and left empty by kubelets since v1.31; kube-apiserver writes it out empty
                .withKubeProxyVersion("")
                .withOperatingSystem(os)
                .withArchitecture(arch)
                .build();
    }

    /** The node's {@code InternalIP}: 10.0.0.1, 10.0.0.2, ... in the order nodes are created. */
    private static String address(int number) {
        return "10.0." + (number / 250 % 250) + "." + (number % 250 + 1);
    }

    private static String uuid(String what, String name) {
        return UUID.nameUUIDFromBytes((what + "/" + name).getBytes(StandardCharsets.UTF_8)).toString();
    }

    static String timestamp(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
