package dev.muster.sim.metrics;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.QueueName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The cluster's allocation as a step function of time, recorded by the simulation after every
 * instant at which something happened, with the time integrals the summary needs. Samples equal to
 * the previous one are not stored. Not thread-safe.
 */
public final class Timeline {
    private final ImmutableList<QueueName> queues;
    private final List<Sample> samples = new ArrayList<>();
    private final double[] shareIntegral;
    private final double[] deservedIntegral;
    private double gpuIntegral;
    private double cpuIntegral;
    private long integratedUntil;

    public Timeline(List<QueueName> queues) {
        this.queues = ImmutableList.copyOf(queues);
        this.shareIntegral = new double[queues.size()];
        this.deservedIntegral = new double[queues.size()];
    }

    public ImmutableList<QueueName> queues() {
        return queues;
    }

    public List<Sample> samples() {
        return Collections.unmodifiableList(samples);
    }

    /** Records the state from {@code millis} on; the previous state is integrated up to it. */
    public void record(long millis, double gpu, double cpu, double[] queueShare, double[] queueDeserved) {
        checkArgument(queueShare.length == queues.size() && queueDeserved.length == queues.size(), "one value per queue");
        integrateTo(millis);
        if (!samples.isEmpty()) {
            Sample last = samples.get(samples.size() - 1);
            if (last.sameValues(gpu, cpu, queueShare, queueDeserved)) {
                return;
            }
            if (last.millis() == millis) {
                samples.remove(samples.size() - 1);
            }
        }
        samples.add(new Sample(millis, gpu, cpu, queueShare, queueDeserved));
    }

    /** Extends the last state up to {@code millis}. */
    public void integrateTo(long millis) {
        checkArgument(millis >= integratedUntil, "time goes back: %s < %s", millis, integratedUntil);
        if (!samples.isEmpty()) {
            Sample last = samples.get(samples.size() - 1);
            double seconds = (millis - integratedUntil) / 1000.0;
            gpuIntegral += last.gpu() * seconds;
            cpuIntegral += last.cpu() * seconds;
            for (int q = 0; q < queues.size(); q++) {
                shareIntegral[q] += last.queueShare(q) * seconds;
                deservedIntegral[q] += last.queueDeserved(q) * seconds;
            }
        }
        integratedUntil = millis;
    }

    public long integratedUntil() {
        return integratedUntil;
    }

    /** The time-averaged allocated fraction of the cluster's GPUs from 0 to the end. */
    public double averageGpu() {
        return integratedUntil == 0 ? 0 : gpuIntegral / (integratedUntil / 1000.0);
    }

    public double averageCpu() {
        return integratedUntil == 0 ? 0 : cpuIntegral / (integratedUntil / 1000.0);
    }

    /** Share-seconds a queue held. */
    public double shareIntegral(int queue) {
        return shareIntegral[queue];
    }

    /** Share-seconds a queue deserved. */
    public double deservedIntegral(int queue) {
        return deservedIntegral[queue];
    }
}
