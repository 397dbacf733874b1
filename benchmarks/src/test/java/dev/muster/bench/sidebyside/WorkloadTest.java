package dev.muster.bench.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    private final Workload workload = new Workload("default", 20, 8);

    @Test
    void musterGetsAPodGroupPerGangAndTheLastGangIsSmaller() {
        // when
        List<HasMetadata> objects = workload.objects(Side.MUSTER);

        // then
        List<GenericKubernetesResource> groups = objects.stream()
                .filter(GenericKubernetesResource.class::isInstance).map(GenericKubernetesResource.class::cast).toList();
        assertThat(groups).extracting(group -> group.getMetadata().getName()).containsExactly("gang-0000", "gang-0001", "gang-0002");
        assertThat(groups).extracting(group -> (Object) ((Map<?, ?>) group.getAdditionalProperties().get("spec")).get("minMember"))
                .containsExactly(8, 8, 4);
        List<Pod> pods = pods(objects);
        assertThat(pods).hasSize(20).allMatch(pod -> pod.getSpec().getSchedulerName().equals("muster"));
        assertThat(pods.get(19).getMetadata().getAnnotations()).containsEntry(Workload.GROUP_ANNOTATION, "gang-0002");
        assertThat(pods.get(7).getMetadata().getAnnotations()).containsEntry(Workload.GROUP_ANNOTATION, "gang-0000");
    }

    @Test
    void kubeSchedulerGetsTheSamePodsPlain() {
        // when
        List<HasMetadata> objects = workload.objects(Side.KUBE_SCHEDULER);

        // then
        List<Pod> pods = pods(objects);
        assertThat(pods).hasSameSizeAs(objects).hasSize(20);
        assertThat(pods).allMatch(pod -> pod.getSpec().getSchedulerName().equals("default-scheduler"))
                .allMatch(pod -> pod.getMetadata().getAnnotations().isEmpty());
        assertThat(pods).extracting(pod -> pod.getSpec().getContainers().get(0).getResources().getRequests())
                .isEqualTo(pods(workload.objects(Side.MUSTER)).stream()
                        .map(pod -> pod.getSpec().getContainers().get(0).getResources().getRequests()).toList());
    }

    private static List<Pod> pods(List<HasMetadata> objects) {
        return objects.stream().filter(Pod.class::isInstance).map(Pod.class::cast).toList();
    }
}
