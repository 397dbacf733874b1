package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a container run as a local process gets of its pod: the environment and the volume mounts a kubelet would give it. */
class PodEnvironmentTest {
    @TempDir
    Path volumes;

    @Test
    void valuesAndPodFieldsBecomeTheEnvironment() {
        Container container = new ContainerBuilder().withName("main")
                .addToEnv(new EnvVarBuilder().withName("PLAIN").withValue("v").build())
                .addToEnv(new EnvVarBuilder().withName("EMPTY").build())
                .addToEnv(fieldRef("NAME", "metadata.name"), fieldRef("NAMESPACE", "metadata.namespace"), fieldRef("UID", "metadata.uid"),
                        fieldRef("NODE", "spec.nodeName"), fieldRef("ROLE", "metadata.labels['role']"),
                        fieldRef("ABSENT", "metadata.annotations['absent']"))
                .build();

        Map<String, String> environment = PodEnvironment.of(pod(container), container);

        assertThat(environment).containsExactly(Map.entry("PLAIN", "v"), Map.entry("EMPTY", ""), Map.entry("NAME", "p"),
                Map.entry("NAMESPACE", "ns"), Map.entry("UID", "u-1"), Map.entry("NODE", "node-1"), Map.entry("ROLE", "worker"),
                Map.entry("ABSENT", ""));
    }

    @Test
    void aVariableFromASecretIsRefusedNamingPodContainerAndVariable() {
        Container container = new ContainerBuilder().withName("main").addToEnv(new EnvVarBuilder().withName("TOKEN").withNewValueFrom()
                .withNewSecretKeyRef("token", "credentials", false).endValueFrom().build()).build();

        assertThatThrownBy(() -> PodEnvironment.of(pod(container), container))
                .hasMessage("pod ns/p: container main: env TOKEN: only value and valueFrom.fieldRef are run as a local process");
    }

    @Test
    void emptyDirMountsGetADirectoryPerVolumeAndSubPathWhileTheServiceAccountTokenIsLeftOut() throws Exception {
        Container container = new ContainerBuilder().withName("main")
                .addNewVolumeMount().withName("work").withMountPath("/tmp").withSubPath("0").endVolumeMount()
                .addNewVolumeMount().withName("shared").withMountPath("/var/run/argo").endVolumeMount()
                .addNewVolumeMount().withName("kube-api-access-x").withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                .endVolumeMount()
                .build();
        Pod pod = new PodBuilder(pod(container)).editSpec()
                .addNewVolume().withName("work").withNewEmptyDir().endEmptyDir().endVolume()
                .addNewVolume().withName("shared").withNewEmptyDir().endEmptyDir().endVolume()
                .addNewVolume().withName("kube-api-access-x").withNewProjected().addNewSource().withNewServiceAccountToken()
                .withPath("token").endServiceAccountToken().endSource().endProjected().endVolume()
                .endSpec().build();

        Map<String, Path> mounts = PodEnvironment.mounts(pod, container, volumes);

        assertThat(mounts).containsExactly(Map.entry("/tmp", volumes.resolve("work").resolve("0")),
                Map.entry("/var/run/argo", volumes.resolve("shared")));
        assertThat(mounts.values()).allSatisfy(directory -> assertThat(Files.isDirectory(directory)).isTrue());
    }

    @Test
    void aSubPathLeavingTheVolumeIsRefused() {
        Container container = new ContainerBuilder().withName("main")
                .addNewVolumeMount().withName("work").withMountPath("/tmp").withSubPath("../../etc").endVolumeMount().build();
        Pod pod = new PodBuilder(pod(container)).editSpec().addNewVolume().withName("work").withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec().build();

        assertThatThrownBy(() -> PodEnvironment.mounts(pod, container, volumes))
                .hasMessage("pod ns/p: container main: volumeMounts work: subPath '../../etc' leaves the volume");
    }

    private static EnvVar fieldRef(String name, String path) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef("v1", path).endValueFrom().build();
    }

    private static Pod pod(Container container) {
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withUid("u-1").addToLabels("role", "worker").endMetadata()
                .withNewSpec().withNodeName("node-1").withContainers(container).endSpec().build();
    }
}
