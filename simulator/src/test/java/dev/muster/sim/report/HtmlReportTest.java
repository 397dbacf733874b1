package dev.muster.sim.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.Resources;
import dev.muster.sim.Comparison;
import dev.muster.sim.ProgressListener;
import dev.muster.sim.SimulationOptions;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.SyntheticWorkload;
import dev.muster.sim.workload.TraceSelection;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    private static Comparison comparison;
    private static String html;

    @BeforeAll
    static void simulate() {
        SchedulerConfigLoader loader = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
        comparison = Comparison.run(SyntheticWorkload.generate("jobs=20,queues=2,interval=60,duration=60..600", 3, TraceSelection.ALL),
                ClusterSpec.uniform(2, Resources.of(48_000, 448.0 * (1L << 30)).withScalar(Resources.GPU, 8000), 16),
                PolicySpec.parseList("baseline,muster", loader), 1, SimulationOptions.DEFAULTS, name -> ProgressListener.NONE);
        html = HtmlReport.render(comparison);
    }

    @Test
    void theReportIsOneFileWithChartJsInlinedAndTheNumbersInTheTable() {
        assertThat(html).doesNotContain("<script src").doesNotContain("http://").contains(HtmlReport.chartJs());
        String average = String.format(Locale.ROOT, "%.0f", comparison.summaries().get(1).avgJctSeconds());
        assertThat(html).contains("data-policy=\"muster\" data-metric=\"avgJctSeconds\">" + average + "</td>");
    }

    @Test
    void chromiumRendersTheChartsAndShowsTheNumbers(@TempDir Path dir) throws IOException, InterruptedException {
        Optional<Path> chromium = chromium();
        // a peer of the build, as the real control plane is: missing, it fails the build rather than skipping the check
        assertThat(chromium).as("chromium on the PATH (Debian: apt-get install chromium; .ci/run installs it)").isPresent();
        Path report = dir.resolve("report.html");
        Files.writeString(report, html);

        Process process = new ProcessBuilder(chromium.get().toString(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                "--user-data-dir=" + dir.resolve("profile"), "--dump-dom", report.toUri().toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String dom = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        // report.js marks the body only after every chart was built without a script error.
        assertThat(dom).contains("data-rendered=\"true\"");
        assertThat(dom).contains("data-metric=\"stuckJobs\">" + comparison.summaries().get(1).stuckJobs() + "</td>");
    }

    static Optional<Path> chromium() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .flatMap(directory -> Stream.of("chromium", "chromium-browser", "google-chrome").map(name -> Path.of(directory, name)))
                .filter(Files::isExecutable).findFirst();
    }
}
