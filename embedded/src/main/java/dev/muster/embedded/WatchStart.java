package dev.muster.embedded;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.common.base.Splitter;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where a watch starts, read from its {@code resourceVersion} parameter as kube-apiserver reads it:
 * absent, empty or {@code 0}, the watch first gets every stored object as {@code ADDED}; a version
 * (what a list answered, as informers send it), each change after it ({@link WatchCache}). The mock sent every stored
 * object to every watch, so an informer got each object twice, once by its list and once more by its
 * watch: 10,000 pods decoded again by each watching client when a scheduler started.
 *
 * <p>A version the server never gave (one from another server that served the same address before
 * it) ends the watch with 410 Gone, as kube-apiserver ends a watch from a version it no longer has, so
 * the informer lists again rather than waiting for changes after a version this server will not
 * reach for a while.
 *
 * <p>The embedded server gives every write the next version of one counter, and lists and writes run
 * under one lock, so a list's version is after everything it holds and before anything it does not.
 *
 * <p>A watch list ({@code sendInitialEvents=true}, which client-go's informers send from v0.35 on, with
 * {@code resourceVersionMatch=NotOlderThan} and bookmarks) gets every stored object as {@code ADDED}
 * whatever its version, then a {@code BOOKMARK} annotated {@code k8s.io/initial-events-end: "true"}
 * that tells the client its initial state is complete, as kube-apiserver's watch cache streams it; an
 * informer waits for that bookmark before it reports itself synced.
 *
 * @param resourceVersion the version the watch starts after; 0 for every stored object
 * @param initialEvents whether the client asked for the stored state streamed, ended by a bookmark
 */
record WatchStart(long resourceVersion, boolean initialEvents) {
    private static final JsonFactory JSON = new JsonFactory();

    /** The start a watch request's path asks for; anything that is not a version reads as every object. */
    static WatchStart of(String path) {
        int query = path.indexOf('?');
        long version = 0;
        if (query >= 0) {
            for (String parameter : Splitter.on('&').split(path.substring(query + 1))) {
                int equals = parameter.indexOf('=');
                if (equals > 0 && "resourceVersion".equals(parameter.substring(0, equals))) {
                    version = parse(URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return new WatchStart(version, QueryParameters.of(path).flag("sendInitialEvents"));
    }

    /** The object's {@code metadata.resourceVersion}, read without building a tree; one that cannot be read counts as new. */
    static long storedVersion(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Long.MAX_VALUE;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("metadata".equals(field) && value == JsonToken.START_OBJECT) {
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String metadataField = parser.currentName();
                        parser.nextToken();
                        if ("resourceVersion".equals(metadataField)) {
                            long version = parse(parser.getValueAsString(""));
                            return version == 0 ? Long.MAX_VALUE : version;
                        }
                        parser.skipChildren();
                    }
                    return Long.MAX_VALUE;
                }
                parser.skipChildren();
            }
            return Long.MAX_VALUE;
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private static long parse(String version) {
        try {
            return Long.parseLong(version);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
