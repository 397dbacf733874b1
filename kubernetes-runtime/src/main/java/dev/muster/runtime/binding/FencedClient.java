package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * A view of the process's client whose writes ask a {@link WriteFence} first, for the code that writes
 * through fabric8 directly rather than through the scheduler's writers: the controllers (Volcano's job
 * controllers, every bridge). With leader election, a replica whose lease may have passed to a standby
 * sends no create, update, patch or delete any more, from the moment its renew deadline runs out by its own
 * clock, even while a controller thread is still in the middle of a sync that the end of its term has not
 * stopped yet. Reads (and watches) are never fenced; nor is a request that {@code exempt} names (the
 * election's own Lease, which a standby must write to take over).
 *
 * <p>A refused write fails as a {@link KubernetesClientException} with code 0 before anything is sent,
 * saying why; a controller treats it as any failed request. The view shares the client's connections (a
 * client derived from its HTTP client): it is closed with the client and must not be closed on its own,
 * which would close those connections.
 */
public final class FencedClient {
    private static final ImmutableSet<String> READS = ImmutableSet.of("GET", "HEAD", "OPTIONS");

    private FencedClient() {}

    /** {@code client} itself when {@code fence} is {@link WriteFence#NONE}; else a view whose writes ask it first. */
    public static KubernetesClient of(KubernetesClient client, WriteFence fence, Predicate<String> exempt) {
        requireNonNull(client, "client is null");
        requireNonNull(fence, "fence is null");
        requireNonNull(exempt, "exempt is null");
        if (fence == WriteFence.NONE) {
            return client;
        }
        return new KubernetesClientImpl(client.getHttpClient().newBuilder()
                .addOrReplaceInterceptor("muster-write-fence", new Fence(fence, exempt)).build(), client.getConfiguration());
    }

    /** Refuses a write while the fence is closed. */
    private record Fence(WriteFence fence, Predicate<String> exempt) implements Interceptor {
        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            String method = request.method().toUpperCase(Locale.ROOT);
            if (READS.contains(method) || fence.open() || exempt.test(request.uri().getPath())) {
                return;
            }
            throw new KubernetesClientException("not sent: " + method + " " + request.uri().getPath()
                    + ": this replica's lease may have passed to another (its renew deadline is over), so it writes nothing more");
        }
    }
}
