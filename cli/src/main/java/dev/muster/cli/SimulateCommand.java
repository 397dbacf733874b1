package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.sim.Comparison;
import dev.muster.sim.DagHints;
import dev.muster.sim.EstimateHints;
import dev.muster.sim.SimulationException;
import dev.muster.sim.SimulationOptions;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.cluster.ClusterSpecLoader;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.report.HtmlReport;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.LoadProblem;
import dev.muster.sim.workload.TraceSelection;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code muster simulate}: replays a trace on a simulated cluster under several policies and compares them. */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        description = {
            "Replays a workload on a simulated cluster with Muster's engine and the per-pod baseline, and compares them.",
            "Exit codes: 0 simulated, 2 an input cannot be used (trace, cluster, policy, configuration)."})
public final class SimulateCommand implements Callable<Integer> {
    enum Output {
        table,
        json
    }

    private static final int MAX_PROBLEMS_SHOWN = 20;

    private final SchedulerConfigLoader configLoader;

    @Spec
    private CommandSpec spec;

    @Option(names = "--workload", required = true, paramLabel = "KIND:ARG",
            description = "philly:PATH, philly-ps:PATH, alibaba-dag:PATH, openb:PATH, dlrm:PATH or synthetic:SPEC (e.g. synthetic:jobs=200,gpus=1|8|16).")
    private String workload;

    @Option(names = "--start", paramLabel = "TIME", description = "Replay jobs arriving at or after TIME, in the trace's clock (ISO local date-time, e.g. 2017-10-01T00:00:00).")
    private String start;

    @Option(names = "--jobs", paramLabel = "N", description = "Replay the first N jobs (default: all).")
    private int jobs;

    @Option(names = "--time-scale", paramLabel = "F", description = "Multiply inter-arrival times by F; below 1 raises the load (default: 1).")
    private double timeScale = 1.0;

    @Option(names = "--cluster", paramLabel = "FILE", description = "Node pools in YAML (default: 64 nodes of 8 GPUs; 100 nodes of 96 cores for alibaba-dag).")
    private Path cluster;

    @Option(names = "--policies", paramLabel = "LIST", description = "Comma-separated: baseline, muster, conf:PATH (default: baseline,muster).")
    private String policies = "baseline,muster";

    @Option(names = "--seed", paramLabel = "S", description = "Seed for the baseline's tie-breaking and the synthetic generator (default: 1).")
    private long seed = 1;

    @Option(names = "--gpus-per-pod", paramLabel = "N", description = "Philly: GPUs per pod of a gang, 8 (one pod per server) or 1 (default: 8).")
    private int gpusPerPod = 8;

    @Option(names = "--stuck-after", paramLabel = "SECONDS", description = "A gang partly placed for longer is stuck (default: 600).")
    private long stuckAfterSeconds = 600;

    @Option(names = "--dag-estimates", paramLabel = "MODEL",
            description = "alibaba-dag: run-time estimates behind each task's muster.dev/dag-remaining-path, oracle (the trace's duration),"
                    + " lognormal:SIGMA (the duration times exp(SIGMA*Z), seeded) or none (no DAG annotations) (default: oracle).")
    private String dagEstimates = "oracle";

    @Option(names = "--duration-estimates", paramLabel = "MODEL",
            description = "Give every gang a muster.dev/duration-estimate annotation (what shortestfirst orders by): lognormal:SIGMA"
                    + " (the trace's duration times exp(SIGMA*Z), seeded; never the exact duration) or none (default: none).")
    private String durationEstimates = "none";

    @Option(names = "--history", paramLabel = "KEEP",
            description = "Give every scheduling cycle the history of the gangs that finished before it, with their measured run times"
                    + " (what shortestfirst's history argument reads for jobs without an estimate): last:N keeps the N most recent,"
                    + " none keeps none (default: none).")
    private String history = "none";

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "table (default) or json.")
    private Output output = Output.table;

    @Option(names = "--report", paramLabel = "FILE.html", description = "Also write a self-contained HTML report.")
    private Path report;

    @Inject
    public SimulateCommand(SchedulerConfigLoader configLoader) {
        this.configLoader = requireNonNull(configLoader, "configLoader is null");
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Comparison comparison;
        try {
            if (jobs < 0 || !(timeScale > 0) || Double.isInfinite(timeScale) || gpusPerPod <= 0 || stuckAfterSeconds < 0) {
                throw new SimulationException("--jobs must not be negative, --time-scale and --gpus-per-pod must be positive, --stuck-after not negative");
            }
            ImmutableList<PolicySpec> policyList = PolicySpec.parseList(policies, configLoader);
            Optional<DurationEstimates> estimates = dagEstimates.equals("none") ? Optional.empty() : Optional.of(DurationEstimates.parse(dagEstimates));
            WorkloadSpec workloadSpec = WorkloadSpec.parse(workload);
            ClusterSpec clusterSpec = cluster == null ? workloadSpec.defaultCluster() : ClusterSpecLoader.load(cluster);
            Workload loaded = workloadSpec.load(new TraceSelection(startTime(), jobs, timeScale), seed, gpusPerPod);
            reportProblems(loaded, err);
            if (loaded.jobs().isEmpty()) {
                throw new SimulationException(loaded.source() + ": no job to replay" + (start == null ? "" : " at or after " + start));
            }
            SimulationOptions options = withDagHints(SimulationOptions.DEFAULTS.withStuckAfterMillis(stuckAfterSeconds * 1000), workloadSpec, estimates);
            if (!durationEstimates.equals("none")) {
                DurationEstimates noisy = DurationEstimates.parse(durationEstimates);
                if (noisy.kind() != DurationEstimates.Kind.LOGNORMAL) {
                    throw new SimulationException("--duration-estimates '" + durationEstimates
                            + "': a policy may not see the trace's true durations; use lognormal:SIGMA (e.g. lognormal:1) or none");
                }
                options = options.withEstimateHints(new EstimateHints(noisy, seed));
            }
            options = options.withHistoryLimit(historyLimit(history));
            List<ProgressBar> bars = new ArrayList<>();
            comparison = Comparison.run(loaded, clusterSpec, policyList, seed, options, name -> {
                bars.forEach(ProgressBar::finish);
                ProgressBar bar = new ProgressBar(err, name, System::nanoTime);
                bars.add(bar);
                return bar;
            });
            bars.forEach(ProgressBar::finish);
            comparison.runs().forEach(run -> run.unschedulable().stream().limit(1).forEach(reason ->
                    err.println("unschedulable on this cluster: " + run.unschedulable().size() + " job(s), e.g. " + reason)));
            if (report != null) {
                Files.writeString(report, HtmlReport.render(comparison));
            }
        } catch (SimulationException e) {
            err.println(e.getMessage());
            err.flush();
            return ExitCodes.BAD_INPUT;
        } catch (IOException e) {
            err.println("cannot write report " + report + ": " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        err.flush();
        out.print(switch (output) {
            case table -> SimulateTable.render(comparison);
            case json -> SimulateJson.render(comparison) + System.lineSeparator();
        });
        out.flush();
        return ExitCodes.OK;
    }

    /** DAG workloads tell the {@code dag} plugin about their stages, as a workflow controller would; other workloads carry no annotation. */
    private SimulationOptions withDagHints(SimulationOptions options, WorkloadSpec workloadSpec, Optional<DurationEstimates> estimates) {
        if (estimates.isEmpty() || workloadSpec.kind() != WorkloadSpec.Kind.ALIBABA_DAG) {
            return options;
        }
        return options.withDagHints(new DagHints(estimates.get(), seed));
    }

    /** {@code none} is 0; {@code last:N} is N. */
    static int historyLimit(String text) {
        if (text.equals("none")) {
            return 0;
        }
        String count = text.startsWith("last:") ? text.substring("last:".length()) : "";
        if (count.matches("[1-9][0-9]{0,8}")) {
            return Integer.parseInt(count);
        }
        throw new SimulationException("--history '" + text + "': expected none or last:N with N a positive whole number (e.g. last:1000)");
    }

    private Optional<LocalDateTime> startTime() {
        if (start == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDateTime.parse(start));
        } catch (DateTimeParseException e) {
            throw new SimulationException("--start: '" + start + "' is not an ISO local date-time such as 2017-10-01T00:00:00", e);
        }
    }

    private static void reportProblems(Workload workload, PrintWriter err) {
        List<LoadProblem> problems = workload.problems();
        problems.stream().limit(MAX_PROBLEMS_SHOWN).forEach(problem -> err.println("skipped " + problem.describe()));
        if (problems.size() > MAX_PROBLEMS_SHOWN) {
            err.println("... and " + (problems.size() - MAX_PROBLEMS_SHOWN) + " more");
        }
        if (!problems.isEmpty() || workload.skippedJobs() > 0) {
            err.println(workload.source() + ": " + problems.size() + " row(s) skipped, " + workload.skippedJobs() + " job(s) left out");
        }
    }
}
