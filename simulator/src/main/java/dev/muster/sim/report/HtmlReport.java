package dev.muster.sim.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.html.HtmlEscapers;
import dev.muster.engine.model.Resources;
import dev.muster.sim.Comparison;
import dev.muster.sim.metrics.Summary;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The comparison as one self-contained HTML file: the table of numbers, the JCT distribution of
 * each policy, GPU allocation over time (cpu for a workload without GPUs), each policy's largest queues' share against their deserved
 * share, and a Gantt view of the largest jobs. Chart.js is inlined from its WebJar, so the file opens
 * offline. Table cells carry {@code data-policy} and {@code data-metric} attributes for checks.
 */
public final class HtmlReport {
    static final String CHART_JS = "META-INF/resources/webjars/chart.js/4.4.1/dist/chart.umd.js";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HtmlReport() {}

    public static String render(Comparison comparison) {
        String data;
        try {
            data = MAPPER.writeValueAsString(ReportData.build(comparison, MAPPER)).replace("</", "<\\/");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder html = new StringBuilder();
        html.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>muster simulate: ")
                .append(escape(comparison.workload().source())).append("</title>\n<style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}")
                .append(".chart{height:340px;margin:1em 0}</style>\n</head><body>\n");
        html.append("<h1>muster simulate</h1>\n<p id=\"workload\">").append(escape(comparison.workload().source())).append(": ")
                .append(comparison.workload().jobs().size()).append(" jobs on ").append(comparison.cluster().nodeCount())
                .append(" nodes, offered load ").append(format(comparison.offeredLoad(), 2)).append(" (")
                .append(format(comparison.offeredLoadWithinWindow(), 2)).append(" within the arrival window); average JCT without waiting ")
                .append(format(comparison.jctFloorSeconds(), 0)).append(" s.</p>\n");
        table(comparison, html);
        html.append("<h2>JCT distribution</h2><div class=\"chart\"><canvas id=\"jct\"></canvas></div>\n")
                .append("<h2>").append(measuresGpus(comparison) ? "GPU" : "cpu")
                .append(" allocation over time</h2><div class=\"chart\"><canvas id=\"allocation\"></canvas></div>\n")
                .append("<h2>Queue share against deserved share (dashed)</h2><div id=\"queues\"></div>\n")
                .append("<h2>Largest jobs: waiting (light) and running (dark), hours</h2><div id=\"gantt\"></div>\n");
        html.append("<script>").append(chartJs()).append("</script>\n");
        html.append("<script>const DATA = ").append(data).append(";\n").append(script()).append("</script>\n</body></html>\n");
        return html.toString();
    }

    /** A workload without GPUs is measured in cpu: a GPU column would show zeros (as the command's table does). */
    private static boolean measuresGpus(Comparison comparison) {
        return comparison.runs().stream().anyMatch(run -> run.measured().equals(Resources.GPU));
    }

    private static void table(Comparison comparison, StringBuilder html) {
        boolean gpu = measuresGpus(comparison);
        html.append("<table id=\"comparison\"><tr><th>policy</th><th>completed</th><th>avg JCT s</th><th>p50 JCT s</th><th>p95 JCT s</th>")
                .append("<th>p99 JCT s</th><th>makespan s</th><th>avg queueing s</th><th>").append(gpu ? "GPU" : "cpu")
                .append(" alloc %</th><th>stuck jobs</th>")
                .append("<th>wasted GPU·s</th><th>Jain</th></tr>\n");
        for (int i = 0; i < comparison.runs().size(); i++) {
            String policy = escape(comparison.runs().get(i).policy());
            Summary s = comparison.summaries().get(i);
            html.append("<tr><td>").append(policy).append("</td>");
            cell(html, policy, "completed", s.completed() + "/" + s.jobs());
            cell(html, policy, "avgJctSeconds", format(s.avgJctSeconds(), 0));
            cell(html, policy, "p50JctSeconds", format(s.p50JctSeconds(), 0));
            cell(html, policy, "p95JctSeconds", format(s.p95JctSeconds(), 0));
            cell(html, policy, "p99JctSeconds", format(s.p99JctSeconds(), 0));
            cell(html, policy, "makespanSeconds", format(s.makespanSeconds(), 0));
            cell(html, policy, "avgQueueingSeconds", format(s.avgQueueingSeconds(), 0));
            if (gpu) {
                cell(html, policy, "gpuAllocation", format(100 * s.gpuAllocation(), 1));
            } else {
                cell(html, policy, "cpuAllocation", format(100 * s.cpuAllocation(), 1));
            }
            cell(html, policy, "stuckJobs", String.valueOf(s.stuckJobs()));
            cell(html, policy, "wastedGpuSeconds", format(s.wastedGpuSeconds(), 0));
            cell(html, policy, "jainFairness", format(s.jainFairness(), 3));
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    private static void cell(StringBuilder html, String policy, String metric, String value) {
        html.append("<td data-policy=\"").append(policy).append("\" data-metric=\"").append(metric).append("\">").append(value).append("</td>");
    }

    private static String format(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String escape(String text) {
        return HtmlEscapers.htmlEscaper().escape(text);
    }

    static String chartJs() {
        return resource(CHART_JS, HtmlReport.class.getClassLoader());
    }

    private static String script() {
        return resource("dev/muster/sim/report/report.js", HtmlReport.class.getClassLoader());
    }

    private static String resource(String name, ClassLoader loader) {
        try (InputStream stream = loader.getResourceAsStream(name)) {
            if (stream == null) {
                throw new IllegalStateException("BUG: " + name + " is missing from the classpath");
            }
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
