package dev.muster.peers;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.String.format;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code peers/install NAME...} and reads its {@code NAME VERSION PATH} lines. A cold install
 * builds from the Go module proxy and takes minutes; a warm one only checks the cache.
 */
public final class PeerInstaller {
    private static final Logger log = LoggerFactory.getLogger(PeerInstaller.class);
    public static final String INSTALLER_PROPERTY = "muster.peers.installer";
    private static final Path SCRIPT = Path.of("peers", "install");
    // a cold build of every peer on 2 busy cores stays well under this
    private static final Duration TIMEOUT = Duration.ofMinutes(60);

    private final Path script;

    public PeerInstaller(Path script) {
        this.script = requireNonNull(script, "script is null");
    }

    /**
     * The installer named by the system property {@value #INSTALLER_PROPERTY} if set, else the one of
     * the clone this code runs in, found from Maven's {@code basedir} (or the working directory)
     * upwards, so a test in any module of the repository finds it.
     */
    public static PeerInstaller locate() {
        String configured = System.getProperty(INSTALLER_PROPERTY);
        if (configured != null) {
            return new PeerInstaller(Path.of(configured));
        }
        Path start = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        return find(start)
                .map(PeerInstaller::new)
                .orElseThrow(() -> new PeerException(format(
                        "no executable %s in %s or any directory above it", SCRIPT, start)));
    }

    static Optional<Path> find(Path start) {
        for (Path directory = start; directory != null; directory = directory.getParent()) {
            Path candidate = directory.resolve(SCRIPT);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public Path script() {
        return script;
    }

    /** Installs the named peers (or finds them cached) and returns them by name. */
    public Map<String, InstalledPeer> install(List<String> names) {
        checkArgument(!names.isEmpty(), "no peer named");
        List<String> command = new ArrayList<>();
        command.add(script.toString());
        command.addAll(names);
        long started = System.nanoTime();
        Output output = run(command);
        if (output.exitCode() != 0) {
            throw new PeerException(format(
                    "%s %s failed with exit code %s:%n%s%s",
                    script, String.join(" ", names), output.exitCode(), output.stderr(), output.stdout()));
        }
        ImmutableMap.Builder<String, InstalledPeer> peers = ImmutableMap.builder();
        for (String line : output.stdout().lines().filter(line -> !line.isBlank()).toList()) {
            InstalledPeer peer = InstalledPeer.parse(line);
            peers.put(peer.name(), peer);
        }
        ImmutableMap<String, InstalledPeer> installed = peers.buildOrThrow();
        List<String> missing = names.stream().filter(name -> !installed.containsKey(name)).toList();
        if (!missing.isEmpty()) {
            throw new PeerException(format(
                    "%s exited 0 but printed no line for %s; it printed:%n%s", script, missing, output.stdout()));
        }
        log.info("peers {} ready in {} ms", installed.values(), (System.nanoTime() - started) / 1_000_000);
        return installed;
    }

    private record Output(int exitCode, String stdout, String stderr) {}

    private static Output run(List<String> command) {
        Path stdout = null;
        Path stderr = null;
        try {
            stdout = Files.createTempFile("peers-install", ".out");
            stderr = Files.createTempFile("peers-install", ".err");
            Process process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                ProcessTrees.destroy(process.toHandle(), Duration.ofSeconds(10));
                throw new PeerException(format(
                        "%s did not finish in %s; it said:%n%s",
                        ImmutableList.copyOf(command), TIMEOUT, Files.readString(stderr, UTF_8)));
            }
            return new Output(process.exitValue(), Files.readString(stdout, UTF_8), Files.readString(stderr, UTF_8));
        }
        catch (IOException e) {
            throw new PeerException(format("cannot run %s: %s", command, e.getMessage()), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PeerException(format("interrupted while running %s", command), e);
        }
        finally {
            deleteIfPresent(stdout);
            deleteIfPresent(stderr);
        }
    }

    private static void deleteIfPresent(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
