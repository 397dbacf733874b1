package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Optional;

/**
 * Shows each request to a {@link RequestInterceptor} before the server's dispatcher answers it, and
 * answers the interceptor's failure instead when it gives one. It shows nothing until {@link
 * #intercept} is called, so the server's own start-up requests go straight through.
 */
final class InterceptingDispatcher extends Dispatcher {
    private final Dispatcher dispatcher;
    private volatile RequestInterceptor interceptor = RequestInterceptor.NONE;

    InterceptingDispatcher(Dispatcher dispatcher) {
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
    }

    /** From now on, shows every request to {@code interceptor}. */
    void intercept(RequestInterceptor interceptor) {
        this.interceptor = requireNonNull(interceptor, "interceptor is null");
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        Optional<RequestInterceptor.Failure> failure = interceptor.intercept(new RequestInterceptor.Request(request.getMethod(),
                request.getPath()));
        if (failure.isPresent()) {
            return Statuses.failure(failure.get().code(), failure.get().reason(), failure.get().message());
        }
        return dispatcher.dispatch(request);
    }
}
