package dev.muster.bridge.airflow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.bridge.airflow.AirflowRunReader.RunHints;
import dev.muster.bridge.airflow.api.AirflowApis;
import dev.muster.bridge.airflow.api.AirflowAvailability;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.hints.TaskHint;
import dev.muster.bridge.airflow.pods.AirflowPodGroups;
import dev.muster.bridge.airflow.pods.AirflowPodIdentity;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.controller.DaemonThreads;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import dev.muster.runtime.controller.TermInformers;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leader term of the Airflow bridge: an informer on the pods Airflow launched (label
 * {@value AirflowPodIdentity#DAG_ID}) and, every poll period, for each pending pod that names a group of
 * ours ({@code scheduling.k8s.io/group-name: airflow-...}, set by the pod_mutation_hook), its run's hints
 * read through the API and its PodGroup written. Without hints (API down, unknown DAG or run) the
 * PodGroup is a plain one of the pod alone, so no pod waits on Airflow's API. The API is proven first
 * (its version, then the credentials), so that a wrong address, API version, user or password is reported
 * once when the term starts; until the check passes it is tried again with backoff and the pods get plain
 * PodGroups. Once it has passed, a failing read costs that run its hints, and AirflowAvailability says
 * the failure and the recovery once each.
 */
final class AirflowTerm implements TermController.Term {
    static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
    private static final Logger log = LoggerFactory.getLogger(AirflowTerm.class);

    private final TermInformers informers;
    private final SharedIndexInformer<Pod> pods;
    private final AirflowRunReader reader;
    private final AirflowPodGroupWriter writer;
    private final Duration pollPeriod;
    private final AirflowSettings api;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("muster-airflow-bridge"));
    // only on the timer's one thread: whether the check of the API has passed in this term
    private boolean proven;

    AirflowTerm(KubernetesClient client, SharedInformers shared, Clock clock, AirflowBridgeSettings settings) {
        this(client, shared, clock, settings, AirflowAvailability.LOG);
    }

    AirflowTerm(KubernetesClient client, SharedInformers shared, Clock clock, AirflowBridgeSettings settings,
            AirflowAvailability.Reporter reporter) {
        requireNonNull(client, "client is null");
        this.informers = new TermInformers(shared, "airflow bridge");
        this.pods = informers.pods(AirflowPodIdentity.DAG_ID);
        this.reader = new AirflowRunReader(AirflowApis.connect(settings.api()), new AirflowAvailability(clock, reporter), settings.hints());
        this.writer = new AirflowPodGroupWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, clock,
                AirflowPodGroupWriter.COMPONENT));
        this.pollPeriod = settings.pollPeriod();
        this.api = settings.api();
    }

    @Override
    public void start() throws InterruptedException {
        informers.start();
        // first on the bridge's one thread, so a bad setting is reported at start, before any poll
        timer.execute(() -> checkApi(api.backoffMin()));
        timer.scheduleWithFixedDelay(this::pollSafely, 0, pollPeriod.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        timer.shutdownNow();
        informers.stop();
    }

    /**
     * Proves the API: its version, then the credentials. A failure is said once (by
     * {@link AirflowAvailability}); until the check passes the pods get plain groups, without a call per
     * pod that would fail the same way, and the check is tried again after {@code retryIn}, doubling up to
     * {@value AirflowSettings#BACKOFF_MAX}.
     */
    private void checkApi(Duration retryIn) {
        Optional<String> version;
        try {
            version = reader.check();
        } catch (RuntimeException e) {
            log.warn("airflow bridge: checking Airflow's API failed: {}", e.toString(), e);
            version = Optional.empty();
        }
        proven = version.isPresent();
        if (proven) {
            log.info("airflow bridge: Airflow {} answers at {} (REST API {}) and takes the credentials of {}", version.get(), api.url(),
                    api.apiVersion(), api.username().isEmpty() ? "(no user)" : api.username());
            return;
        }
        Duration twice = retryIn.multipliedBy(2);
        Duration after = twice.compareTo(api.backoffMax()) > 0 ? api.backoffMax() : twice;
        try {
            timer.schedule(() -> checkApi(after), retryIn.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("airflow bridge: the term stops; no further check of Airflow's API");
        }
    }

    private void pollSafely() {
        try {
            poll();
        } catch (RuntimeException e) {
            // the next poll tries again; a scheduled task that throws would never run again
            log.warn("airflow bridge: poll failed: {}", e.toString(), e);
        }
    }

    /** One pass over the pending pods; package-private for tests. */
    void poll() {
        Map<String, List<Pod>> groups = new TreeMap<>();
        for (Pod pod : pods.getStore().list()) {
            String group = pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(GROUP_ANNOTATION);
            boolean pending = pod.getSpec().getNodeName() == null
                    && (pod.getStatus() == null || pod.getStatus().getPhase() == null || "Pending".equals(pod.getStatus().getPhase()));
            if (group != null && group.startsWith("airflow-") && pending) {
                groups.computeIfAbsent(pod.getMetadata().getNamespace() + "/" + group, key -> new ArrayList<>()).add(pod);
            }
        }
        Map<String, Optional<RunHints>> runs = new HashMap<>();
        groups.forEach((key, members) -> {
            Pod first = members.get(0);
            String namespace = first.getMetadata().getNamespace();
            String name = key.substring(namespace.length() + 1);
            Optional<AirflowPodIdentity> identity;
            try {
                identity = AirflowPodIdentity.fromLabels(namespace + "/" + first.getMetadata().getName(), first.getMetadata().getLabels());
            } catch (IllegalArgumentException e) {
                log.warn("{}; scheduled as a plain pod", e.getMessage());
                identity = Optional.empty();
            }
            Map<String, String> annotations = first.getMetadata().getAnnotations();
            Optional<AirflowPodGroups.Plan> planned = identity
                    .flatMap(pod -> runs.computeIfAbsent(pod.dagId() + "\n" + pod.runLabel(), ignored -> hints(pod))
                            .flatMap(run -> Optional.ofNullable(run.tasks().get(pod.taskId()))
                                    .map(hint -> planned(namespace, name, pod, annotations, run, hint))));
            Optional<AirflowPodIdentity> known = identity;
            writer.write(planned.orElseGet(() -> known.map(pod -> AirflowPodGroups.plain(namespace, name, pod, members.size() == 1))
                    .orElseGet(() -> AirflowPodGroups.plain(namespace, name))), ImmutableList.copyOf(members), planned.isPresent());
        });
    }

    private Optional<RunHints> hints(AirflowPodIdentity pod) {
        if (!proven) {
            log.debug("airflow bridge: DAG {}, run label {}: plain PodGroups until Airflow's API is proven", pod.dagId(), pod.runLabel());
            return Optional.empty();
        }
        return reader.read(pod.dagId(), pod.runLabel());
    }

    private static AirflowPodGroups.Plan planned(String namespace, String name, AirflowPodIdentity pod, Map<String, String> annotations,
            RunHints run, TaskHint hint) {
        AirflowPodGroups.Plan plan = AirflowPodGroups.plan(namespace, pod, annotations, run.runId(), hint);
        // the pod waits for the group its annotation names; a hook of another version may name it otherwise
        return plan.name().equals(name) ? plan : new AirflowPodGroups.Plan(namespace, name, plan.minMember(), plan.queue(), plan.annotations());
    }
}
