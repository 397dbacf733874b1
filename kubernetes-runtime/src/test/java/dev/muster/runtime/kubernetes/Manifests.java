package dev.muster.runtime.kubernetes;

/** YAML for the objects end-to-end tests create. */
public final class Manifests {
    private Manifests() {}

    public static String node(String name, String cpu, String memory) {
        return """
                apiVersion: v1
                kind: Node
                metadata: {name: %s}
                status:
                  allocatable: {cpu: "%s", memory: %s, pods: "110"}
                  capacity: {cpu: "%s", memory: %s, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                ---
                """.formatted(name, cpu, memory, cpu, memory);
    }

    public static String queue(String name, String capabilityCpu) {
        String capability = capabilityCpu.isEmpty() ? "" : "\n  capability: {cpu: \"" + capabilityCpu + "\"}";
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: %s}
                spec:
                  weight: 1%s
                ---
                """.formatted(name, capability);
    }

    public static String podGroup(String name, int minMember, String queue) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: %s, namespace: default}
                spec: {minMember: %d, queue: %s}
                ---
                """.formatted(name, minMember, queue);
    }

    /** A pod of Muster's in a gang, asking for {@code cpu}. */
    public static String pod(String name, String group, String cpu) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: default
                  annotations: {scheduling.k8s.io/group-name: %s}
                spec:
                  schedulerName: muster
                  containers:
                  - name: main
                    image: busybox
                    resources: {requests: {cpu: "%s", memory: 1Gi}}
                ---
                """.formatted(name, group, cpu);
    }

    /** A gang: its PodGroup and {@code size} pods named {@code <name>-<index>}. */
    public static String gang(String name, int size, String queue, String cpu) {
        StringBuilder yaml = new StringBuilder(podGroup(name, size, queue));
        for (int index = 0; index < size; index++) {
            yaml.append(pod(name + "-" + index, name, cpu));
        }
        return yaml.toString();
    }
}
