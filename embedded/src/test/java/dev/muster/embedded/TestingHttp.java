package dev.muster.embedded;

import java.net.http.HttpClient;

/** JDK HTTP clients of an embedded server, trusting its CA when it serves HTTPS. */
final class TestingHttp {
    private TestingHttp() {}

    /** A builder whose clients trust {@code server}'s CA (HTTP/2 by ALPN unless told otherwise, as Go clients speak it). */
    static HttpClient.Builder builder(EmbeddedApiServer server) {
        HttpClient.Builder builder = HttpClient.newBuilder();
        server.trust().ifPresent(builder::sslContext);
        return builder;
    }

    static HttpClient client(EmbeddedApiServer server) {
        return builder(server).build();
    }
}
