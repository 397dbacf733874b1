package dev.muster.bridge.kubeflow;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * What native mode reads of a TFJob or PyTorchJob to make its replicas, after the defaults training
 * operator v1.9 applies before every sync ({@code SetDefaults_TFJob}, {@code SetDefaults_PyTorchJob}):
 * the job as the bridge reads it, each replica type's spec, and the fields of the kind that shape the
 * replicas' environment.
 *
 * @param enableDynamicWorker a TFJob's {@code spec.enableDynamicWorker} (false for a PyTorchJob)
 * @param nprocPerNode a PyTorchJob's {@code spec.nprocPerNode}, {@code "auto"} when left out and the
 *     elastic policy has no {@code nProcPerNode}
 */
public record NativeJob(
        TrainingJob job,
        ImmutableSortedMap<String, ReplicaSpec> replicaSpecs,
        boolean enableDynamicWorker,
        Optional<String> nprocPerNode,
        Optional<ElasticPolicy> elasticPolicy) {
    public NativeJob {
        requireNonNull(job, "job is null");
        replicaSpecs = ImmutableSortedMap.copyOf(requireNonNull(replicaSpecs, "replicaSpecs is null"));
        requireNonNull(nprocPerNode, "nprocPerNode is null");
        requireNonNull(elasticPolicy, "elasticPolicy is null");
    }

    public TrainingKind kind() {
        return job.kind();
    }

    /** The sum of replicas over all replica types. */
    public int totalReplicas() {
        return replicaSpecs.values().stream().mapToInt(ReplicaSpec::replicas).sum();
    }

    /**
     * One replica type's spec, defaulted: replicas 1 when absent, the kind's restart policy when absent,
     * and the kind's port on the default container (or the first) when it has none of that name.
     *
     * @param template the pod template as JSON; a copy is kept and a copy is returned
     */
    public record ReplicaSpec(int replicas, ReplicaRestartPolicy restartPolicy, ObjectNode template) {
        public ReplicaSpec {
            checkArgument(replicas >= 0, "replicas is negative: %s", replicas);
            requireNonNull(restartPolicy, "restartPolicy is null");
            template = requireNonNull(template, "template is null").deepCopy();
        }

        @Override
        public ObjectNode template() {
            return template.deepCopy();
        }
    }

    /** A replica spec's {@code restartPolicy} ({@code common_types.go}). */
    public enum ReplicaRestartPolicy {
        ALWAYS("Always"),
        ON_FAILURE("OnFailure"),
        NEVER("Never"),
        EXIT_CODE("ExitCode");

        private final String value;

        ReplicaRestartPolicy(String value) {
            this.value = value;
        }

        public String value() {
            return value;
        }

        /** The pod's {@code restartPolicy}: the same, except {@code ExitCode}, which pods do not know: {@code Never}. */
        public String podRestartPolicy() {
            return this == EXIT_CODE ? NEVER.value : value;
        }

        public static Optional<ReplicaRestartPolicy> of(String value) {
            for (ReplicaRestartPolicy policy : values()) {
                if (policy.value.equals(value)) {
                    return Optional.of(policy);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * A PyTorchJob's {@code spec.elasticPolicy}, its replica bounds defaulted as the operator does
     * ({@code setElasticPolicy}: the one given for the other, else the Worker replicas).
     *
     * @param processesPerNode {@code elasticPolicy.nProcPerNode}
     */
    public record ElasticPolicy(
            int minReplicas,
            int maxReplicas,
            Optional<String> rdzvBackend,
            Optional<Integer> rdzvPort,
            Optional<String> rdzvHost,
            Optional<String> rdzvId,
            ImmutableList<RendezvousSetting> rdzvConf,
            boolean standalone,
            Optional<Integer> processesPerNode,
            Optional<Integer> maxRestarts) {
        public ElasticPolicy {
            requireNonNull(rdzvBackend, "rdzvBackend is null");
            requireNonNull(rdzvPort, "rdzvPort is null");
            requireNonNull(rdzvHost, "rdzvHost is null");
            requireNonNull(rdzvId, "rdzvId is null");
            rdzvConf = ImmutableList.copyOf(requireNonNull(rdzvConf, "rdzvConf is null"));
            requireNonNull(processesPerNode, "processesPerNode is null");
            requireNonNull(maxRestarts, "maxRestarts is null");
        }
    }

    /** One entry of {@code elasticPolicy.rdzvConf}. */
    public record RendezvousSetting(String key, String value) {
        public RendezvousSetting {
            requireNonNull(key, "key is null");
            requireNonNull(value, "value is null");
        }
    }
}
