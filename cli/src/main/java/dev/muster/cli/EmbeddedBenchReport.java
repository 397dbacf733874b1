package dev.muster.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;

/** Prints what {@code muster bench --embedded} measured. */
final class EmbeddedBenchReport {
    private EmbeddedBenchReport() {}

    static int print(EmbeddedBench.Result result, int gang, boolean json, PrintWriter out) {
        if (json) {
            ObjectNode node = new ObjectMapper().createObjectNode()
                    .put("mode", "embedded")
                    .put("nodes", result.nodes())
                    .put("pods", result.pods())
                    .put("gang", gang)
                    .put("bound", result.bound())
                    .put("createSeconds", Math.round(result.createSeconds() * 1000) / 1000.0)
                    .put("seconds", Math.round(result.bindSeconds() * 1000) / 1000.0)
                    .put("podsPerSecond", result.podsPerSecond())
                    .put("cpuSeconds", Math.round(result.bindCpuSeconds() * 1000) / 1000.0)
                    .put("writePathBound", result.written())
                    .put("writePathSeconds", Math.round(result.writeSeconds() * 1000) / 1000.0)
                    .put("writePathPodsPerSecond", result.writesPerSecond());
            out.println(node);
        } else {
            out.printf(Locale.ROOT, "embedded API server, %d nodes, %d pods in gangs of %d (created in %.1f s): "
                            + "bound %d end to end in %.3f s (%d pods/s; JVM CPU %.1f s, %.2f ms a pod)%n"
                            + "write path alone (Binder to API server, no session): bound %d in %.3f s (%d pods/s)%n",
                    result.nodes(), result.pods(), gang, result.createSeconds(), result.bound(), result.bindSeconds(),
                    result.podsPerSecond(), result.bindCpuSeconds(), result.bindCpuSeconds() * 1000 / Math.max(result.bound(), 1),
                    result.written(), result.writeSeconds(), result.writesPerSecond());
        }
        out.flush();
        return result.bound() == result.pods() && result.written() == result.pods() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
