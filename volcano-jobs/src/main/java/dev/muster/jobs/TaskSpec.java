package dev.muster.jobs;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import java.util.Optional;

/**
 * One {@code spec.tasks[]} entry: {@code replicas} pods from {@code template}.
 *
 * <p>The template is a fabric8 object and therefore mutable: the record keeps a private copy and
 * {@link #template()} returns a fresh copy each time, so no caller can change the job.
 *
 * @param minAvailable the task's gang minimum; absent means all replicas
 * @param maxRetry how many container restarts make the task fail ({@code TaskFailed}); -1 for no limit
 * @param topologyPolicy the NUMA policy ({@code none}, {@code best-effort}, ...), empty when unset
 */
public record TaskSpec(
        String name,
        int replicas,
        Optional<Integer> minAvailable,
        PodTemplateSpec template,
        ImmutableList<LifecyclePolicy> policies,
        int maxRetry,
        Optional<DependsOn> dependsOn,
        String topologyPolicy) {
    public static final int DEFAULT_MAX_RETRY = 3;

    public TaskSpec {
        requireNonNull(name, "name is null");
        checkArgument(replicas >= 0, "task %s: replicas is negative: %s", name, replicas);
        requireNonNull(minAvailable, "minAvailable is null");
        template = new PodTemplateSpecBuilder(requireNonNull(template, "template is null")).build();
        policies = ImmutableList.copyOf(policies);
        requireNonNull(dependsOn, "dependsOn is null");
        requireNonNull(topologyPolicy, "topologyPolicy is null");
    }

    @Override
    public PodTemplateSpec template() {
        return new PodTemplateSpecBuilder(template).build();
    }

    /** The task's gang minimum as the PodGroup's {@code minTaskMember} gets it: minAvailable, else replicas. */
    public int minMember() {
        return minAvailable.orElse(replicas);
    }

    /** The template's {@code spec.hostname}, empty when unset. */
    public String hostname() {
        return template.getSpec() == null || template.getSpec().getHostname() == null ? "" : template.getSpec().getHostname();
    }

    /** The template's {@code spec.subdomain}, empty when unset. */
    public String subdomain() {
        return template.getSpec() == null || template.getSpec().getSubdomain() == null ? "" : template.getSpec().getSubdomain();
    }
}
