package dev.muster.embedded;

import static java.lang.String.format;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a kubelet gives a container beyond its command, for one run as a local process: its environment (values and the
 * downward API's {@code fieldRef}s) and its volume mounts ({@code emptyDir} volumes, one directory per pod, with
 * {@code subPath}). A service account token volume is left out: the process has a kubeconfig instead. Anything else
 * cannot be run here and is refused naming the pod, the container and the field.
 */
final class PodEnvironment {
    private static final Pattern LABEL_OR_ANNOTATION = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

    private PodEnvironment() {}

    /**
     * The container's environment.
     *
     * @throws IllegalArgumentException naming the variable when it is read from anything but a value or a pod field
     */
    static Map<String, String> of(Pod pod, Container container) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv()) {
            if (variable.getValueFrom() == null) {
                environment.put(variable.getName(), Optional.ofNullable(variable.getValue()).orElse(""));
            } else if (variable.getValueFrom().getFieldRef() != null) {
                environment.put(variable.getName(), field(pod, container, variable.getName(), variable.getValueFrom().getFieldRef()));
            } else {
                throw new IllegalArgumentException(format("pod %s: container %s: env %s: only value and valueFrom.fieldRef are run"
                        + " as a local process", name(pod), container.getName(), variable.getName()));
            }
        }
        return environment;
    }

    /**
     * Where each of the container's volume mounts comes from, by mount path, the directories made.
     *
     * @throws IllegalArgumentException naming the volume when it is not an emptyDir or a service account token
     */
    static Map<String, Path> mounts(Pod pod, Container container, Path volumes) throws IOException {
        Map<String, Volume> byName = new LinkedHashMap<>();
        pod.getSpec().getVolumes().forEach(volume -> byName.put(volume.getName(), volume));
        Map<String, Path> mounts = new LinkedHashMap<>();
        for (VolumeMount mount : container.getVolumeMounts()) {
            Volume volume = byName.get(mount.getName());
            if (volume == null) {
                throw new IllegalArgumentException(format("pod %s: container %s: volumeMounts %s: no volume of that name",
                        name(pod), container.getName(), mount.getName()));
            }
            if (isServiceAccountToken(volume)) {
                continue;
            }
            if (volume.getEmptyDir() == null) {
                throw new IllegalArgumentException(format("pod %s: volume %s: only emptyDir volumes are run as a local process",
                        name(pod), volume.getName()));
            }
            String subPath = Optional.ofNullable(mount.getSubPath()).orElse("");
            if (subPath.startsWith("/") || Path.of(subPath).normalize().startsWith("..")) {
                throw new IllegalArgumentException(format("pod %s: container %s: volumeMounts %s: subPath '%s' leaves the volume",
                        name(pod), container.getName(), mount.getName(), subPath));
            }
            mounts.put(mount.getMountPath(), Files.createDirectories(volumes.resolve(volume.getName()).resolve(subPath)));
        }
        return mounts;
    }

    /** The projected volume a service account admission adds ({@code kube-api-access-*}): token, CA and namespace. */
    private static boolean isServiceAccountToken(Volume volume) {
        return volume.getProjected() != null && volume.getProjected().getSources().stream()
                .map(VolumeProjection::getServiceAccountToken).anyMatch(token -> token != null);
    }

    private static String field(Pod pod, Container container, String variable, ObjectFieldSelector selector) {
        String path = selector.getFieldPath();
        Matcher keyed = LABEL_OR_ANNOTATION.matcher(path);
        if (keyed.matches()) {
            Map<String, String> values = keyed.group(1).equals("labels") ? pod.getMetadata().getLabels() : pod.getMetadata().getAnnotations();
            return values == null ? "" : values.getOrDefault(keyed.group(2), "");
        }
        return switch (path) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            case "metadata.uid" -> pod.getMetadata().getUid();
            case "spec.nodeName" -> pod.getSpec().getNodeName();
            case "spec.serviceAccountName" -> Optional.ofNullable(pod.getSpec().getServiceAccountName()).orElse("");
            default -> throw new IllegalArgumentException(format("pod %s: container %s: env %s: fieldRef %s is not run as a local process",
                    name(pod), container.getName(), variable, path));
        };
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
