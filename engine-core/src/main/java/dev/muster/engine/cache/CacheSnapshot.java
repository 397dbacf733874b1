package dev.muster.engine.cache;


import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;

/**
 * What one cycle reads from the {@link ClusterCache}: the cluster, what is wrong with its objects,
 * and the PodGroup and Queue objects as stored, whose status the status writer compares with the
 * session's outcome.
 *
 * @param podGroups the PodGroup objects, by job; a job missing here has an automatic PodGroup not created yet
 * @param queues the Queue objects; the {@code default} queue is missing here until it is created
 * @param invalid the objects whose problems are reported on them, from {@code problems} and the jobs'
 */
public record CacheSnapshot(
        ClusterSnapshot cluster,
        ImmutableList<ManifestProblem> problems,
        ImmutableMap<JobId, StoredObject> podGroups,
        ImmutableMap<QueueName, StoredObject> queues,
        ImmutableList<InvalidObject> invalid) {
    public CacheSnapshot {
        requireNonNull(cluster, "cluster is null");
        problems = ImmutableList.copyOf(problems);
        podGroups = ImmutableMap.copyOf(podGroups);
        queues = ImmutableMap.copyOf(queues);
        invalid = ImmutableList.copyOf(invalid);
    }
}
