package dev.muster.peers;

import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The peer processes of one control plane and their directory. Closing it ends them in reverse
 * order of start and deletes the directory; a shutdown hook ends them if the JVM exits first.
 */
final class PeerGroup implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerGroup.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final Path directory;
    private final List<PeerProcess> processes = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;

    PeerGroup(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
        this.shutdownHook = new Thread(this::stopProcesses, "muster-peers-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    PeerProcess start(String name, List<String> command) {
        PeerProcess peer = PeerProcess.start(name, command, directory.resolve(name + ".log"));
        processes.add(peer);
        log.info("started {} (pid {}), log {}", name, peer.pid(), peer.logFile());
        return peer;
    }

    /**
     * Ends a running peer (SIGTERM, SIGKILL after the grace) and forgets it, so its end is expected and
     * fails no test; {@link #start} runs it again.
     */
    void stop(String name) {
        PeerProcess peer = find(name);
        long started = System.nanoTime();
        peer.close();
        processes.remove(peer);
        log.info("stopped {} (pid {}) on request in {} ms", name, peer.pid(), (System.nanoTime() - started) / 1_000_000);
    }

    boolean running(String name) {
        return processes.stream().anyMatch(peer -> peer.name().equals(name));
    }

    List<PeerProcess> processes() {
        return ImmutableList.copyOf(processes);
    }

    /** Waits for a plain-HTTP endpoint of a peer (etcd's /health) to answer 200. */
    void awaitHttpOk(String name, String url, Duration timeout) {
        PeerProcess peer = find(name);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build();
        await(peer, url + " answers 200", timeout)
                .until(() -> http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    /** Waits for kube-apiserver's /readyz, with the client's credentials and trust. */
    void awaitReady(PeerProcess peer, KubernetesClient client, String url, Duration timeout) {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url).build();
        await(peer, url + " answers 200", timeout)
                .until(() -> client.getHttpClient().sendAsync(request, String.class).get(5, TimeUnit.SECONDS).code() == 200);
    }

    void awaitFile(PeerProcess peer, Path file, Duration timeout) {
        await(peer, file + " written", timeout).until(() -> Files.isRegularFile(file) && Files.size(file) > 0);
    }

    ConditionFactory await(PeerProcess peer, String what, Duration timeout) {
        return Awaitility.await(peer.name() + ": " + what)
                .atMost(timeout)
                .pollInterval(POLL)
                .ignoreExceptions()
                .failFast(peer.name() + " exited", () -> !peer.isAlive());
    }

    PeerProcess find(String name) {
        return processes.stream()
                .filter(peer -> peer.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("BUG: no peer " + name + " started"));
    }

    /** Every peer's state and last log lines, for a failure message. */
    String reports() {
        return processes.stream().map(PeerProcess::report).reduce((a, b) -> a + format("%n") + b).orElse("(no peer had started)");
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<RuntimeException> failures = stopProcesses();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook has run or will find nothing alive
        }
        try {
            MoreFiles.deleteRecursively(directory, RecursiveDeleteOption.ALLOW_INSECURE);
        }
        catch (IOException e) {
            failures.add(new PeerException("cannot delete " + directory + ": " + e.getMessage(), e));
        }
        if (!failures.isEmpty()) {
            PeerException failure = new PeerException("the control plane did not stop cleanly");
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    private List<RuntimeException> stopProcesses() {
        List<RuntimeException> failures = new ArrayList<>();
        for (PeerProcess peer : ImmutableList.copyOf(processes).reverse()) {
            long started = System.nanoTime();
            try {
                peer.close();
                log.info("stopped {} (pid {}) in {} ms", peer.name(), peer.pid(), (System.nanoTime() - started) / 1_000_000);
            }
            catch (RuntimeException e) {
                failures.add(e);
            }
        }
        return failures;
    }
}
