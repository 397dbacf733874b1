package dev.muster.cli.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.inject.Guice;
import com.google.inject.util.Modules;
import dev.muster.cli.CliModule;
import dev.muster.cli.WhatIf;
import dev.muster.engine.EngineModule;
import dev.muster.engine.cache.ManifestReader;
import dev.muster.engine.cache.ManifestResult;
import dev.muster.engine.model.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's contract, held against seeded mutations of every conformance cluster and example: the
 * mistakes a user makes (see {@link Mutations}), each run through {@code muster what-if} in this JVM.
 * For every input: no exception escapes, no exception class or library text is printed, the exit code
 * is 0 (2 only for a configuration that cannot be used, naming it), every object of a document the
 * mutation did not touch is still read, and when the mutation touched nothing another object is placed
 * against, every bind of the unmutated input is made again on the same node.
 *
 * <p>The inputs run on as many threads as there are processors, each with its own engine; the outcomes are
 * reported in seed order. {@value #INPUTS_PROPERTY} sets the number of inputs (default 10,000); {@value #SEED_PROPERTY}
 * replays one seed, as printed for a failure:
 * {@code ./mvnw -B -o -pl cli -am verify -Dtest=WhatIfFuzzTest -Dsurefire.failIfNoSpecifiedTests=false -Dmuster.fuzz.seed=N}.
 */
class WhatIfFuzzTest {
    static final String INPUTS_PROPERTY = "muster.fuzz.inputs";
    static final String SEED_PROPERTY = "muster.fuzz.seed";
    private static final Path CONFORMANCE = Path.of("src/test/resources/conformance/volcano");
    private static final List<String> EXAMPLES = List.of("../examples/what-if/cluster.yaml", "../examples/demo/1-training.yaml",
            "../examples/demo/2-queues.yaml", "../examples/demo/3-research-sweep.yaml", "../examples/demo/4-production-retrain.yaml",
            "../examples/up/training.yaml", "../examples/jobs/mpi-ssh-svc.yaml", "../examples/jobs/tensorflow-ps-worker.yaml");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    @Test
    void everyMutatedInputKeepsTheContract() throws Exception {
        List<FuzzBase> bases = bases(new WhatIfRunner(whatIf(), Files.createDirectories(folder.resolve("bases"))));
        List<Long> seeds = seeds();
        // the inputs are independent: each thread has its own engine and files and takes every n-th seed, and
        // the outcomes are put back in seed order, so what is found and printed does not depend on the threads
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), seeds.size()));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<Outcome>>> parts = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int thread = 0; thread < threads; thread++) {
                List<Long> share = new ArrayList<>();
                for (int index = thread; index < seeds.size(); index += threads) {
                    share.add(seeds.get(index));
                }
                Path own = Files.createDirectories(folder.resolve("thread-" + thread));
                parts.add(pool.submit(() -> check(new WhatIfRunner(whatIf(), own), bases, share)));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<List<Outcome>> part : parts) {
                outcomes.addAll(part.get());
            }
            outcomes.sort(Comparator.comparingLong(Outcome::seed));
            double seconds = (System.nanoTime() - start) / 1e9;
            Map<String, Integer> mutations = new TreeMap<>();
            outcomes.forEach(outcome -> mutations.merge(outcome.mutation(), 1, Integer::sum));
            List<String> failures = outcomes.stream().flatMap(outcome -> outcome.failure().stream()).toList();
            System.out.printf("what-if fuzz: %d inputs from %d bases on %d threads in %.1f s, %d failures%n  mutations: %s%n",
                    outcomes.size(), bases.size(), threads, seconds, failures.size(), mutations);

            assertThat(outcomes).extracting(Outcome::seed).containsExactlyElementsOf(seeds);
            if (!failures.isEmpty()) {
                fail(failures.size() + " inputs broke the contract (replay one with -D" + SEED_PROPERTY + "=N):\n  "
                        + String.join("\n  ", failures.subList(0, Math.min(40, failures.size()))));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** One input's seed, its mutation's kind, and how it broke the contract, if it did. */
    private record Outcome(long seed, String mutation, Optional<String> failure) {}

    /** The inputs of these seeds, run one after another through one runner. */
    private static List<Outcome> check(WhatIfRunner runner, List<FuzzBase> bases, List<Long> seeds) throws IOException {
        List<Outcome> outcomes = new ArrayList<>();
        for (long seed : seeds) {
            Random random = new Random(seed);
            FuzzBase base = bases.get(random.nextInt(bases.size()));
            FuzzInput input = Mutations.mutate(base, random);
            String mutation = input.mutation().replaceAll("^[^:]*: ", "").replaceAll("( at | in | of |'| [0-9]| changed| added).*$", "");
            Optional<String> failure;
            try {
                failure = check(runner, base, input);
            } catch (RuntimeException | StackOverflowError e) {
                failure = Optional.of("the harness caught " + e);
            }
            outcomes.add(new Outcome(seed, mutation, failure.map(text -> "seed " + seed + " (" + input.mutation() + "): " + text)));
        }
        return outcomes;
    }

    private static List<Long> seeds() {
        String replay = System.getProperty(SEED_PROPERTY, "");
        if (!replay.isBlank()) {
            return List.of(Long.parseLong(replay.strip()));
        }
        int inputs = Integer.getInteger(INPUTS_PROPERTY, 10_000);
        return Stream.iterate(0L, seed -> seed + 1).limit(inputs).toList();
    }

    /** The engine as {@code main} wires it, on a fixed clock so that a seed replays exactly. */
    private static WhatIf whatIf() {
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
        return Guice.createInjector(new EngineModule(), Modules.override(new CliModule()).with(binder -> binder.bind(Clock.class)
                .toInstance(clock))).getInstance(WhatIf.class);
    }

    /** Every base that what-if decides unmutated, with its binds. */
    private static List<FuzzBase> bases(WhatIfRunner runner) throws IOException {
        List<FuzzBase> bases = new ArrayList<>();
        try (Stream<Path> cases = Files.list(CONFORMANCE)) {
            for (Path directory : cases.filter(Files::isDirectory).sorted().toList()) {
                bases.add(FuzzBase.of(directory.getFileName().toString(), directory.resolve("cluster.yaml"),
                        Optional.of(directory.resolve("scheduler.conf"))));
            }
        }
        for (String example : EXAMPLES) {
            bases.add(FuzzBase.of(example, Path.of(example), Optional.empty()));
        }
        List<FuzzBase> decided = new ArrayList<>();
        for (FuzzBase base : bases) {
            WhatIfRunner.Run run = runner.run(WhatIfRunner.utf8(FuzzBase.join(base.documents())), base.config());
            if (run.exitCode() == 0) {
                JsonNode outcome = JSON.readTree(run.stdout());
                ImmutableSet.Builder<String> pipelined = ImmutableSet.builder();
                outcome.path("pipelined").fieldNames().forEachRemaining(pipelined::add);
                decided.add(base.withOutcome(binds(outcome), pipelined.build()));
            }
        }
        assertThat(decided).as("bases what-if decides unmutated").hasSizeGreaterThan(80);
        return decided;
    }

    private static ImmutableMap<String, String> binds(JsonNode root) {
        ImmutableMap.Builder<String, String> binds = ImmutableMap.builder();
        root.path("binds").properties().forEach(entry -> binds.put(entry.getKey(), entry.getValue().asText()));
        return binds.buildOrThrow();
    }

    private static Optional<String> check(WhatIfRunner runner, FuzzBase base, FuzzInput input) throws IOException {
        WhatIfRunner.Run run = runner.run(input.cluster(), input.config().or(base::config));
        if (run.escaped().isPresent()) {
            return Optional.of("an exception escaped: " + run.escaped().get());
        }
        Optional<String> internal = Contract.internalText(run.stdout() + run.stderr());
        if (internal.isPresent()) {
            return Optional.of("printed a library's or Java's text: " + internal.get());
        }
        if (input.config().isPresent()) {
            if (run.exitCode() == 2) {
                return run.stderr().contains(runner.configFile().toString()) ? Optional.empty()
                        : Optional.of("exit 2 without naming the configuration: " + Contract.firstLine(run.stderr()));
            }
            return run.exitCode() == 0 ? Optional.empty() : Optional.of("exit " + run.exitCode() + ": " + Contract.firstLine(run.stderr()));
        }
        if (run.exitCode() != 0) {
            return Optional.of("exit " + run.exitCode() + " for a cluster file that can be read: " + Contract.firstLine(run.stderr()));
        }
        JsonNode decisions = JSON.readTree(run.stdout());
        ManifestResult mutated = new ManifestReader(WhatIfRunner.SCHEDULER_NAMES).read(List.of(runner.clusterFile()));
        ImmutableSet<String> read = ObjectKeys.of(mutated.snapshot());
        // an object is still read when it is in the snapshot, or reported on because of another one (its
        // PodGroup or Queue broken): what must never happen is that it silently disappears
        Set<String> reported = new HashSet<>();
        mutated.problems().forEach(problem -> reported.add(problem.kind() + " " + problem.name()));
        ImmutableSet<String> baseRead = runner.baseKeys(base);
        for (int document = 0; document < base.documents().size(); document++) {
            if (!input.untouched(document)) {
                continue;
            }
            for (String key : ObjectKeys.named(base.trees().get(document))) {
                if (baseRead.contains(key) && !read.contains(key) && !reported.contains(key)) {
                    return Optional.of(key + " of untouched document " + document + " is no longer read, and nothing says why");
                }
            }
        }
        List<String> bound = new ArrayList<>();
        decisions.path("binds").fieldNames().forEachRemaining(bound::add);
        ImmutableMap<String, Task> tasks = runner.baseSnapshotTasks(base);
        if (input.inert() && Contract.touchesNothingPlaced(base, input, tasks) && !Contract.bindsTouchedJobs(base, input, tasks, bound)) {
            for (Map.Entry<String, String> bind : base.baseBinds().entrySet()) {
                String node = decisions.path("binds").path(bind.getKey()).asText("");
                if (!node.equals(bind.getValue()) && Contract.untouchedPod(base, input, bind.getKey())) {
                    return Optional.of("pod " + bind.getKey() + " was bound to " + bind.getValue() + " unmutated, now "
                            + (node.isEmpty() ? "not bound" : "to " + node));
                }
            }
        }
        return Optional.empty();
    }

}
