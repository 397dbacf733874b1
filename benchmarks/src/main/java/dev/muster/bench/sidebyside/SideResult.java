package dev.muster.bench.sidebyside;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * One side's figures. The window runs from the scheduler's process start to the last pod seen bound (or
 * the timeout); the scheduler's CPU is its whole process's from its start, the others' only in the window.
 */
record SideResult(
        Side side,
        int nodes,
        int pods,
        int bound,
        Optional<Duration> firstBind,
        Duration window,
        boolean allBound,
        Duration schedulerCpu,
        Duration apiServerCpu,
        Duration etcdCpu,
        Duration kwokCpu,
        MachineLoad loadBefore,
        MachineLoad loadAfter) {
    SideResult {
        requireNonNull(side, "side is null");
        requireNonNull(firstBind, "firstBind is null");
        requireNonNull(window, "window is null");
        requireNonNull(schedulerCpu, "schedulerCpu is null");
        requireNonNull(apiServerCpu, "apiServerCpu is null");
        requireNonNull(etcdCpu, "etcdCpu is null");
        requireNonNull(kwokCpu, "kwokCpu is null");
        requireNonNull(loadBefore, "loadBefore is null");
        requireNonNull(loadAfter, "loadAfter is null");
    }

    /** Pods seen bound per second of the window, end to end. */
    double podsPerSecond() {
        return bound / seconds(window);
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    static final String HEADER = String.format("%-15s %6s %6s %6s %9s %9s %9s %10s %10s %8s %8s %-16s %-16s",
            "side", "nodes", "pods", "bound", "first s", "all s", "pods/s", "sched cpu", "apisrv cpu", "etcd cpu",
            "kwok cpu", "load before", "load after");

    String row() {
        return String.format("%-15s %6d %6d %6d %9s %9s %9.0f %10.1f %10.1f %8.1f %8.1f %-16s %-16s",
                side.label(), nodes, pods, bound,
                firstBind.map(first -> String.format("%.1f", seconds(first))).orElse("-"),
                allBound ? String.format("%.1f", seconds(window)) : "timeout",
                podsPerSecond(), seconds(schedulerCpu), seconds(apiServerCpu), seconds(etcdCpu), seconds(kwokCpu),
                loadBefore, loadAfter);
    }

    /** Muster over kube-scheduler for the figures that compare: rate, and CPU per bound pod. */
    static String ratios(SideResult muster, SideResult kubeScheduler) {
        return String.format("ratio muster / kube-scheduler: pods/s %.2f, scheduler cpu %.2f, api server cpu %.2f, "
                        + "etcd cpu %.2f (cpu per bound pod: scheduler %.2f, api server %.2f)",
                muster.podsPerSecond() / kubeScheduler.podsPerSecond(),
                ratio(muster.schedulerCpu, kubeScheduler.schedulerCpu),
                ratio(muster.apiServerCpu, kubeScheduler.apiServerCpu),
                ratio(muster.etcdCpu, kubeScheduler.etcdCpu),
                ratio(muster.schedulerCpu, kubeScheduler.schedulerCpu) * kubeScheduler.bound / muster.bound,
                ratio(muster.apiServerCpu, kubeScheduler.apiServerCpu) * kubeScheduler.bound / muster.bound);
    }

    private static double ratio(Duration numerator, Duration denominator) {
        return seconds(numerator) / seconds(denominator);
    }
}
