package dev.muster.bench.sidebyside;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches one namespace's pods, as a client apart from the scheduler, and notes when the first and the
 * last of the expected pods were seen with a {@code spec.nodeName}: end to end, a bind counts once its
 * watch event reached another client. Thread-safe.
 */
final class BoundPods implements AutoCloseable {
    private static final long UNSET = Long.MIN_VALUE;

    private final int expected;
    private final Ticker ticker;
    private final Set<String> bound = ConcurrentHashMap.newKeySet();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicLong firstBound = new AtomicLong(UNSET);
    private final AtomicLong allBound = new AtomicLong(UNSET);
    private final CountDownLatch done = new CountDownLatch(1);
    private final CountDownLatch allSeen = new CountDownLatch(1);
    private final SharedIndexInformer<Pod> informer;

    private BoundPods(KubernetesClient client, String namespace, int expected, Ticker ticker) {
        this.expected = expected;
        this.ticker = requireNonNull(ticker, "ticker is null");
        this.informer = client.pods().inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                observe(pod);
            }

            @Override
            public void onUpdate(Pod before, Pod pod) {
                observe(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                // the benchmark deletes no pod while it measures
            }
        }, 0);
    }

    /** Starts watching; the informer's first list may still be on its way to the handler when this returns. */
    static BoundPods watch(KubernetesClient client, String namespace, int expected, Ticker ticker) {
        return new BoundPods(client, namespace, expected, ticker);
    }

    private void observe(Pod pod) {
        String name = pod.getMetadata().getName();
        if (seen.add(name) && seen.size() == expected) {
            allSeen.countDown();
        }
        String node = pod.getSpec().getNodeName();
        if (node == null || node.isEmpty() || !bound.add(name)) {
            return;
        }
        long now = ticker.read();
        firstBound.compareAndSet(UNSET, now);
        if (bound.size() == expected) {
            allBound.compareAndSet(UNSET, now);
            done.countDown();
        }
    }

    /** Pods this watch has seen at all, bound or not. */
    int seen() {
        return seen.size();
    }

    /** Waits until every expected pod was seen, bound or not, or {@code timeout}; true if all were. */
    boolean awaitAllSeen(Duration timeout) throws InterruptedException {
        return allSeen.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int bound() {
        return bound.size();
    }

    /** Waits until every expected pod was seen bound, or {@code timeout}; true if all were. */
    boolean awaitAllBound(Duration timeout) throws InterruptedException {
        return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The ticker's reading when the first pod was seen bound. */
    Optional<Long> firstBoundAt() {
        long at = firstBound.get();
        return at == UNSET ? Optional.empty() : Optional.of(at);
    }

    /** The ticker's reading when the last expected pod was seen bound. */
    Optional<Long> allBoundAt() {
        long at = allBound.get();
        return at == UNSET ? Optional.empty() : Optional.of(at);
    }

    @Override
    public void close() {
        informer.close();
    }
}
