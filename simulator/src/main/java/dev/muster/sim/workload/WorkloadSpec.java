package dev.muster.sim.workload;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Resources;
import dev.muster.sim.SimulationException;
import dev.muster.sim.cluster.ClusterSpec;
import java.nio.file.Path;

/**
 * A {@code --workload} value, {@code KIND:ARGUMENT}: {@code philly:PATH}, {@code philly-ps:PATH} (Philly's
 * multi-pod jobs as PS/worker jobs, {@link PsWorkerJobs}), {@code alibaba-dag:PATH},
 * {@code openb:PATH}, {@code dlrm:PATH} (Alibaba's DLRM serving apps, {@link DlrmLoader}) or
 * {@code synthetic:SPEC}; and the cluster to use when none is given.
 */
public record WorkloadSpec(Kind kind, String argument) {
    public enum Kind {
        PHILLY("philly"),
        PHILLY_PS("philly-ps"),
        ALIBABA_DAG("alibaba-dag"),
        OPENB("openb"),
        DLRM("dlrm"),
        SYNTHETIC("synthetic");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public WorkloadSpec {
        requireNonNull(kind, "kind is null");
        requireNonNull(argument, "argument is null");
    }

    public static WorkloadSpec parse(String text) {
        int colon = text.indexOf(':');
        String kind = colon < 0 ? text : text.substring(0, colon);
        for (Kind candidate : Kind.values()) {
            if (candidate.text.equals(kind)) {
                return new WorkloadSpec(candidate, colon < 0 ? "" : text.substring(colon + 1));
            }
        }
        throw new SimulationException("unknown workload '" + text + "': use philly:PATH, philly-ps:PATH, alibaba-dag:PATH, openb:PATH, dlrm:PATH or synthetic:SPEC");
    }

    /**
     * @param gpusPerPod for Philly (see {@link PhillyLoader}), ignored otherwise
     */
    public Workload load(TraceSelection selection, long seed, int gpusPerPod) {
        if (kind != Kind.SYNTHETIC && argument.isEmpty()) {
            throw new SimulationException("workload " + kind.text + " needs a path: " + kind.text + ":PATH");
        }
        return switch (kind) {
            case PHILLY -> PhillyLoader.load(Path.of(argument), selection, gpusPerPod);
            case PHILLY_PS -> PsWorkerJobs.of(PhillyLoader.load(Path.of(argument), selection, gpusPerPod));
            case ALIBABA_DAG -> AlibabaDagLoader.load(Path.of(argument), selection, AlibabaDagLoader.DEFAULT_MAX_GANG_SIZE);
            case OPENB -> OpenbLoader.load(Path.of(argument), selection);
            case DLRM -> DlrmLoader.load(Path.of(argument), selection);
            case SYNTHETIC -> SyntheticWorkload.generate(argument, seed, selection);
        };
    }

    /**
     * The cluster when {@code --cluster} is absent: 64 nodes of 8 GPUs (48 cores, 448 GiB) for GPU
     * traces, as the Philly experiment; 100 nodes of 96 cores and 512 GiB for the Alibaba
     * DAG sample (v2018 machines); for DLRM, 36 racks of 20 CPU nodes and 8 GPU nodes, as
     * {@code examples/simulate/dlrm-racks.yaml} (simulator/README.md).
     */
    public ClusterSpec defaultCluster() {
        return switch (kind) {
            case PHILLY, PHILLY_PS, OPENB, SYNTHETIC -> ClusterSpec.uniform(64,
                    Resources.of(48_000, 448.0 * (1L << 30)).withScalar(Resources.GPU, 8000), 16);
            case ALIBABA_DAG -> ClusterSpec.uniform(100, Resources.of(96_000, AlibabaDagLoader.NODE_MEMORY), 20);
            case DLRM -> DlrmLoader.defaultCluster();
        };
    }
}
