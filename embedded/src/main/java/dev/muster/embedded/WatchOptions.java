package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * How long a watch lasts and whether it gets bookmarks, read from its {@code timeoutSeconds} and
 * {@code allowWatchBookmarks} parameters as kube-apiserver reads them. kube-apiserver's watch cache
 * sends a {@code BOOKMARK} about every minute, and one 2 seconds before the watch's deadline so the
 * client restarts close to now; it ends the stream at the deadline.
 *
 * @param timeout when the server ends the watch; empty for never (kube-apiserver picks 30 to 60 minutes)
 * @param bookmarks whether the client asked for {@code BOOKMARK} events
 */
record WatchOptions(Optional<Duration> timeout, boolean bookmarks) {
    /** kube-apiserver's {@code bookmarkFrequency}. */
    static final Duration BOOKMARK_FREQUENCY = Duration.ofMinutes(1);
    private static final Duration BEFORE_DEADLINE = Duration.ofSeconds(2);

    WatchOptions {
        requireNonNull(timeout, "timeout is null");
    }

    static WatchOptions of(String path) {
        QueryParameters parameters = QueryParameters.of(path);
        Optional<Duration> timeout = parameters.get("timeoutSeconds").flatMap(WatchOptions::seconds);
        return new WatchOptions(timeout, parameters.flag("allowWatchBookmarks"));
    }

    /** When the next bookmark is due, counted from {@code elapsed} since the watch opened; empty if none is. */
    Optional<Duration> nextBookmark(Duration elapsed) {
        if (!bookmarks) {
            return Optional.empty();
        }
        Duration heartbeat = elapsed.plus(BOOKMARK_FREQUENCY);
        if (timeout.isEmpty()) {
            return Optional.of(heartbeat);
        }
        Duration beforeDeadline = timeout.get().minus(BEFORE_DEADLINE);
        Duration next = beforeDeadline.compareTo(heartbeat) < 0 ? beforeDeadline : heartbeat;
        return next.compareTo(elapsed) <= 0 ? Optional.empty() : Optional.of(next);
    }

    private static Optional<Duration> seconds(String value) {
        try {
            long seconds = Long.parseLong(value);
            return seconds > 0 ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
