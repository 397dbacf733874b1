package dev.muster.runtime.metrics;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format for tests: every line is a HELP, a TYPE or a sample
 * of a declared family, and every value is a number. Samples are keyed as they are written, e.g.
 * {@code muster_queue_allocated{queue="ml",resource="cpu"}}.
 */
final class Scrape {
    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\",?)*\\})? (\\S+)");
    private static final Pattern TYPE = Pattern.compile("# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Map<String, Double> samples;

    private Scrape(Map<String, Double> samples) {
        this.samples = samples;
    }

    static Scrape parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        Set<String> families = new HashSet<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                continue;
            }
            Matcher type = TYPE.matcher(line);
            if (type.matches()) {
                checkArgument(families.add(type.group(1)), "family declared twice: %s", line);
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            checkArgument(sample.matches(), "not a sample: '%s'", line);
            String name = sample.group(1);
            String family = name.replaceFirst("_(bucket|sum|count)$", "");
            checkArgument(families.contains(name) || families.contains(family), "sample before its TYPE: %s", line);
            String key = name + (sample.group(2) == null ? "" : sample.group(2));
            checkState(samples.put(key, number(sample.group(3))) == null, "sample twice: %s", line);
        }
        return new Scrape(samples);
    }

    /** GETs a path of a running server. */
    static HttpResponse<String> get(InetSocketAddress address, String path) throws IOException, InterruptedException {
        return send(address, path, "GET");
    }

    static HttpResponse<String> send(InetSocketAddress address, String path, String method) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + address.getPort() + path);
        HttpRequest request = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    Optional<Double> value(String series) {
        return Optional.ofNullable(samples.get(series));
    }

    Map<String, Double> samples() {
        return samples;
    }

    private static double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}
