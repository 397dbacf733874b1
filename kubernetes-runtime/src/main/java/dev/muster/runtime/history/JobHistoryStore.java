package dev.muster.runtime.history;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's job history: loaded from the ConfigMap when a term begins, added to as gangs finish
 * ({@link GangRuns}), written back at most once per {@link HistoryOptions#writeEvery()} while it has
 * jobs not yet written, and once more when the term ends. Writes go through the runtime's client, which
 * with leader election is fenced by the Lease, so a replica that may have lost the lead writes nothing.
 *
 * <p>Never stops the scheduler: a ConfigMap that cannot be read leaves the history in memory (and
 * unwritten, so what it holds is not overwritten), one that cannot be written is tried again later, and
 * bad entries are left out with one warning.
 */
@ThreadSafe
public final class JobHistoryStore implements CycleHistory {
    private static final Logger log = LoggerFactory.getLogger(JobHistoryStore.class);
    /** The ConfigMap's key that holds the history. */
    public static final String KEY = "history.json";

    private final KubernetesClient client;
    private final String namespace;
    private final HistoryOptions options;
    private final Clock clock;

    @GuardedBy("this")
    private GangRuns runs = new GangRuns();
    @GuardedBy("this")
    private JobHistory history = JobHistory.EMPTY;
    /** Recorded since the last write that succeeded. */
    @GuardedBy("this")
    private final List<FinishedJob> unwritten = new ArrayList<>();
    /** Whether the ConfigMap has been read in this term; until it has, it is not written. */
    @GuardedBy("this")
    private boolean loaded;
    @GuardedBy("this")
    private Instant lastWrite = Instant.MIN;
    /** Whether the last read or write failed, so a lasting failure is warned about once. */
    @GuardedBy("this")
    private boolean failing;

    public JobHistoryStore(KubernetesClient client, String namespace, HistoryOptions options, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.namespace = requireNonNull(namespace, "namespace is null");
        this.options = requireNonNull(options, "options is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The ConfigMap, as {@code namespace/name}. */
    public String configMap() {
        return namespace + "/" + options.configMap();
    }

    /**
     * A term begins: reads the ConfigMap, and forgets the runs seen in an earlier term (another leader may
     * have recorded them since).
     *
     * @return the entries of the ConfigMap that were left out, as the warning logged about them names them
     */
    public synchronized ImmutableList<String> load() {
        runs = new GangRuns();
        loaded = false;
        return read();
    }

    @Override
    public synchronized JobHistory observe(ClusterSnapshot cluster) {
        Instant now = clock.instant();
        for (FinishedJob job : runs.observe(cluster, now)) {
            history = history.with(job, options.limit());
            unwritten.add(job);
            if (unwritten.size() > options.limit()) {
                // writes keep failing: what the history would not keep anyway need not wait for one
                unwritten.remove(0);
            }
            log.debug("job finished job={} queue={} runMs={}", job.id(), job.queue(), job.run().toMillis());
        }
        if (!unwritten.isEmpty() && !now.isBefore(lastWrite.plus(options.writeEvery()))) {
            write(now);
        }
        return history;
    }

    /** A term ends: writes what is not written yet, if the fence still lets it. */
    public synchronized void flush() {
        if (!unwritten.isEmpty()) {
            write(clock.instant());
        }
    }

    /** The history the next cycle's snapshot carries. */
    public synchronized JobHistory history() {
        return history;
    }

    @GuardedBy("this")
    private ImmutableList<String> read() {
        ConfigMap stored;
        try {
            stored = client.configMaps().inNamespace(namespace).withName(options.configMap()).get();
        } catch (KubernetesClientException e) {
            failed("read", e);
            return ImmutableList.of();
        }
        JobHistory read = JobHistory.EMPTY;
        ImmutableList<String> problems = ImmutableList.of();
        String text = Optional.ofNullable(stored).map(ConfigMap::getData).map(data -> data.get(KEY)).orElse(null);
        if (text != null) {
            HistoryCodec.Decoded decoded = HistoryCodec.decode(text);
            if (!decoded.problems().isEmpty()) {
                log.warn("job history configMap={} key={}: left out {} bad entries, kept {}: {}", configMap(), KEY,
                        decoded.problems().size(), decoded.history().jobs().size(), String.join("; ", decoded.problems()));
            }
            read = decoded.history();
            problems = decoded.problems();
        }
        // jobs recorded but not written (a write failed, or a term ended before one) come after the stored ones
        for (FinishedJob job : unwritten) {
            read = read.with(job, options.limit());
        }
        history = cap(read);
        loaded = true;
        failing = false;
        log.info("job history loaded configMap={} jobs={}", configMap(), history.jobs().size());
        return problems;
    }

    @GuardedBy("this")
    private void write(Instant now) {
        lastWrite = now;
        if (!loaded) {
            read();
            if (!loaded) {
                return;
            }
        }
        ConfigMap desired = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(options.configMap())
                .addToLabels("app.kubernetes.io/managed-by", "muster")
                .endMetadata()
                .addToData(KEY, HistoryCodec.encode(history))
                .build();
        try {
            ConfigMap current = client.configMaps().inNamespace(namespace).withName(options.configMap()).get();
            if (current == null) {
                client.configMaps().inNamespace(namespace).resource(desired).create();
            } else {
                desired.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
                client.configMaps().inNamespace(namespace).resource(desired).update();
            }
        } catch (KubernetesClientException e) {
            failed("write", e);
            return;
        }
        log.debug("job history written configMap={} jobs={} new={}", configMap(), history.jobs().size(), unwritten.size());
        unwritten.clear();
        failing = false;
    }

    @GuardedBy("this")
    private JobHistory cap(JobHistory read) {
        ImmutableList<FinishedJob> jobs = read.jobs();
        return jobs.size() <= options.limit() ? read : new JobHistory(jobs.subList(jobs.size() - options.limit(), jobs.size()));
    }

    @GuardedBy("this")
    private void failed(String what, KubernetesClientException e) {
        if (!failing) {
            // 403: a Role from before the history; the job history is kept in memory until the Role allows it
            log.warn("cannot {} the job history, keeping it in memory and trying again at the next write (at most every {} s) "
                    + "configMap={} code={} error=\"{}\"", what, options.writeEvery().toSeconds(), configMap(), e.getCode(), e.getMessage());
        } else {
            log.debug("cannot {} the job history configMap={} code={}", what, configMap(), e.getCode(), e);
        }
        failing = true;
    }
}
