package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.jobs.JobStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the runtime must do for one job after one request, in this order: delete the job if its TTL
 * expired (then nothing else); create or update {@code podGroup} or delete it; create
 * {@code objectsToCreate} that do not exist yet (the ssh Secret: never regenerate a key) and create or
 * update {@code objectsToApply}; delete {@code podsToDelete} (first marking each with
 * {@code volcano.sh/out-of-sync}) and {@code objectsToDelete}; create {@code podsToCreate}; write
 * {@code status}; record {@code events}; schedule {@code delayed}; requeue after {@code requeueAfter}.
 * Every created object carries a controller owner reference to the Job.
 *
 * <p>{@link #toString()} summarises by name only: the plan may hold a Secret with a private key,
 * which must never reach a log.
 *
 * @param waitingTasks tasks whose pods are held back by {@code dependsOn}, with the reason
 */
public record JobPlan(
        boolean deleteJob,
        Optional<PodGroupManifest> podGroup,
        boolean deletePodGroup,
        ImmutableList<HasMetadata> objectsToCreate,
        ImmutableList<HasMetadata> objectsToApply,
        ImmutableList<ObjectRef> objectsToDelete,
        ImmutableList<String> podsToDelete,
        ImmutableList<Pod> podsToCreate,
        Optional<JobStatus> status,
        ImmutableList<PlanEvent> events,
        ImmutableList<DelayedRequest> delayed,
        Optional<Duration> requeueAfter,
        ImmutableSortedMap<String, String> waitingTasks) {
    public JobPlan {
        requireNonNull(podGroup, "podGroup is null");
        objectsToCreate = ImmutableList.copyOf(objectsToCreate);
        objectsToApply = ImmutableList.copyOf(objectsToApply);
        objectsToDelete = ImmutableList.copyOf(objectsToDelete);
        podsToDelete = ImmutableList.copyOf(podsToDelete);
        podsToCreate = ImmutableList.copyOf(podsToCreate);
        requireNonNull(status, "status is null");
        events = ImmutableList.copyOf(events);
        delayed = ImmutableList.copyOf(delayed);
        requireNonNull(requeueAfter, "requeueAfter is null");
        waitingTasks = ImmutableSortedMap.copyOfSorted(waitingTasks);
    }

    public static Builder builder() {
        return new Builder();
    }

    public ImmutableList<String> podNamesToCreate() {
        return podsToCreate.stream().map(pod -> pod.getMetadata().getName()).collect(ImmutableList.toImmutableList());
    }

    @Override
    public String toString() {
        return "JobPlan{deleteJob=" + deleteJob
                + ", podGroup=" + podGroup.map(PodGroupManifest::name).orElse("-")
                + ", deletePodGroup=" + deletePodGroup
                + ", create=" + names(objectsToCreate) + ", apply=" + names(objectsToApply) + ", delete=" + objectsToDelete
                + ", podsToDelete=" + podsToDelete + ", podsToCreate=" + podNamesToCreate()
                + ", phase=" + status.map(value -> value.currentPhase().wireName()).orElse("unchanged")
                + ", events=" + events.stream().map(PlanEvent::reason).toList() + ", delayed=" + delayed.size()
                + ", requeueAfter=" + requeueAfter.map(Duration::toString).orElse("-") + ", waiting=" + waitingTasks.keySet() + "}";
    }

    private static List<String> names(List<HasMetadata> objects) {
        return objects.stream().map(object -> object.getKind() + " " + object.getMetadata().getName()).toList();
    }

    /** Accumulates a plan. Not thread-safe. */
    public static final class Builder {
        private boolean deleteJob;
        private Optional<PodGroupManifest> podGroup = Optional.empty();
        private boolean deletePodGroup;
        private final List<HasMetadata> objectsToCreate = new ArrayList<>();
        private final List<HasMetadata> objectsToApply = new ArrayList<>();
        private final List<ObjectRef> objectsToDelete = new ArrayList<>();
        private final List<String> podsToDelete = new ArrayList<>();
        private final List<Pod> podsToCreate = new ArrayList<>();
        private Optional<JobStatus> status = Optional.empty();
        private final List<PlanEvent> events = new ArrayList<>();
        private final List<DelayedRequest> delayed = new ArrayList<>();
        private Optional<Duration> requeueAfter = Optional.empty();
        private final SortedMap<String, String> waitingTasks = new TreeMap<>();

        private Builder() {}

        public Builder deleteJob() {
            deleteJob = true;
            return this;
        }

        public Builder podGroup(PodGroupManifest manifest) {
            podGroup = Optional.of(manifest);
            return this;
        }

        public Builder deletePodGroup() {
            deletePodGroup = true;
            return this;
        }

        public Builder createObject(HasMetadata object) {
            objectsToCreate.add(object);
            return this;
        }

        public Builder applyObject(HasMetadata object) {
            objectsToApply.add(object);
            return this;
        }

        public Builder deleteObject(ObjectRef object) {
            objectsToDelete.add(object);
            return this;
        }

        public Builder deletePod(String name) {
            podsToDelete.add(name);
            return this;
        }

        public Builder createPod(Pod pod) {
            podsToCreate.add(pod);
            return this;
        }

        public Builder status(JobStatus value) {
            status = Optional.of(value);
            return this;
        }

        public Builder event(PlanEvent event) {
            events.add(event);
            return this;
        }

        public Builder delay(DelayedRequest request) {
            delayed.add(request);
            return this;
        }

        public Builder requeueAfter(Duration value) {
            requeueAfter = Optional.of(value);
            return this;
        }

        public Builder waiting(String task, String reason) {
            waitingTasks.put(task, reason);
            return this;
        }

        public JobPlan build() {
            return new JobPlan(deleteJob, podGroup, deletePodGroup, ImmutableList.copyOf(objectsToCreate), ImmutableList.copyOf(objectsToApply),
                    ImmutableList.copyOf(objectsToDelete), ImmutableList.copyOf(podsToDelete), ImmutableList.copyOf(podsToCreate), status,
                    ImmutableList.copyOf(events), ImmutableList.copyOf(delayed), requeueAfter, ImmutableSortedMap.copyOfSorted(waitingTasks));
        }
    }
}
