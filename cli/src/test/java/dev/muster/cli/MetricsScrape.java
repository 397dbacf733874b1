package dev.muster.cli;

import com.google.common.base.Splitter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads one metric of a {@code muster run}'s {@code /metrics}, for the tests that run it on a thread or as a process. */
final class MetricsScrape {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private MetricsScrape() {}

    /** The sum of a metric's samples (of every label set), or -1 while /metrics does not answer within {@code timeout}. */
    static double sum(int port, String name, Duration timeout) {
        String text;
        try {
            text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
        double sum = 0;
        for (String line : Splitter.on('\n').split(text)) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
