package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A subgroup of a job during one session (Volcano's SubJob): the tasks one subgroup policy puts
 * together, a gang of {@code minAvailable} with its own network topology, or the job's default
 * subgroup holding the tasks no policy selects. Not thread-safe; it lives and dies with its job.
 */
public final class SubJobState {
    private final String id;
    private final String groupId;
    private final JobState job;
    private final int minAvailable;
    private final int matchIndex;
    private final List<TaskState> tasks = new ArrayList<>();
    private Optional<NetworkTopology> networkTopology;
    private Optional<String> allocatedHyperNode = Optional.empty();

    SubJobState(String id, String groupId, JobState job, int minAvailable, int matchIndex, Optional<NetworkTopology> networkTopology) {
        this.id = requireNonNull(id, "id is null");
        this.groupId = requireNonNull(groupId, "groupId is null");
        this.job = requireNonNull(job, "job is null");
        this.minAvailable = minAvailable;
        this.matchIndex = matchIndex;
        this.networkTopology = requireNonNull(networkTopology, "networkTopology is null");
    }

    /** {@code <job uid>/<policy>-<match values>}, or the job's uid for its default subgroup. */
    public String id() {
        return id;
    }

    /** What the subgroups of one policy share: {@code <job uid>/<policy>}, or the job's uid. */
    public String groupId() {
        return groupId;
    }

    public JobState job() {
        return job;
    }

    public int minAvailable() {
        return minAvailable;
    }

    /** The first match value when it is a number, else 0: subgroups of one policy are tried in this order. */
    public int matchIndex() {
        return matchIndex;
    }

    public List<TaskState> tasks() {
        return Collections.unmodifiableList(tasks);
    }

    void addTask(TaskState task) {
        tasks.add(task);
    }

    /** The subgroup's topology after the session's adjustments (tier names resolved, soft made hard). */
    public Optional<NetworkTopology> networkTopology() {
        return networkTopology;
    }

    void setNetworkTopology(Optional<NetworkTopology> topology) {
        this.networkTopology = requireNonNull(topology, "topology is null");
    }

    public boolean withNetworkTopology() {
        return networkTopology.isPresent();
    }

    /** The highest tier the subgroup may span, when its topology is hard and says which. */
    public Optional<Integer> hardTierLimit() {
        return hardTierLimit(networkTopology);
    }

    static Optional<Integer> hardTierLimit(Optional<NetworkTopology> topology) {
        return topology.filter(NetworkTopology::hard).flatMap(NetworkTopology::highestTierAllowed);
    }

    /** The lowest hypernode holding every task of the subgroup placed so far. */
    public Optional<String> allocatedHyperNode() {
        return allocatedHyperNode;
    }

    public void setAllocatedHyperNode(Optional<String> hyperNode) {
        this.allocatedHyperNode = requireNonNull(hyperNode, "hyperNode is null");
    }

    public int readyTaskCount() {
        int result = 0;
        for (TaskState task : tasks) {
            TaskStatus status = task.status();
            if (status.isAllocated() || status == TaskStatus.SUCCEEDED) {
                result++;
            }
        }
        return result;
    }

    public int allocatedTaskCount() {
        return (int) tasks.stream().filter(task -> task.status().isAllocated()).count();
    }

    public int waitingTaskCount() {
        return (int) tasks.stream().filter(task -> task.status() == TaskStatus.PIPELINED).count();
    }

    private int pendingBestEffortCount() {
        return (int) tasks.stream().filter(task -> task.status() == TaskStatus.PENDING && task.bestEffort()).count();
    }

    public boolean isReady() {
        return readyTaskCount() + pendingBestEffortCount() >= minAvailable;
    }

    public boolean isPipelined() {
        return waitingTaskCount() + readyTaskCount() + pendingBestEffortCount() >= minAvailable;
    }

    /** The sum of the pending tasks' requests: what the subgroup needs, as Volcano's {@code GetMinResources}. */
    public Resources pendingRequest() {
        Resources total = Resources.EMPTY;
        for (TaskState task : tasks) {
            if (task.status() == TaskStatus.PENDING) {
                total = total.add(task.initRequest());
            }
        }
        return total;
    }

    @Override
    public String toString() {
        return id;
    }
}
