package dev.muster.sim.metrics;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * The cluster from one instant until the next sample: allocated GPUs and cpu (as fractions of the
 * cluster) and, per queue in {@link Timeline#queues()} order, its allocated and deserved share of
 * the measured resource (GPUs, or cpu for a cpu-only workload).
 */
public final class Sample {
    private final long millis;
    private final double gpu;
    private final double cpu;
    private final double[] queueShare;
    private final double[] queueDeserved;

    public Sample(long millis, double gpu, double cpu, double[] queueShare, double[] queueDeserved) {
        this.millis = millis;
        this.gpu = gpu;
        this.cpu = cpu;
        this.queueShare = requireNonNull(queueShare, "queueShare is null").clone();
        this.queueDeserved = requireNonNull(queueDeserved, "queueDeserved is null").clone();
    }

    public long millis() {
        return millis;
    }

    public double gpu() {
        return gpu;
    }

    public double cpu() {
        return cpu;
    }

    public double queueShare(int queue) {
        return queueShare[queue];
    }

    public double queueDeserved(int queue) {
        return queueDeserved[queue];
    }

    boolean sameValues(double otherGpu, double otherCpu, double[] otherShare, double[] otherDeserved) {
        return gpu == otherGpu && cpu == otherCpu && Arrays.equals(queueShare, otherShare)
                && Arrays.equals(queueDeserved, otherDeserved);
    }
}
