package dev.muster.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true, https = false)
class TermInformersTest {
    private static final ResourceDefinitionContext QUEUES = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("Queue").withPlural("queues").withNamespaced(false).build();
    private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
            .withGroup("example.muster.dev").withVersion("v1").withKind("Widget").withPlural("widgets").withNamespaced(true).build();

    private KubernetesMockServer server;
    private KubernetesClient client;

    @Test
    void aKindAskedForTwiceIsOneInformerAndAnotherSelectorAnother() {
        // given
        TermInformers informers = new TermInformers(new SharedInformers(client), "example bridge");

        // when
        SharedIndexInformer<GenericKubernetesResource> queues = informers.resources(QUEUES);
        SharedIndexInformer<Pod> pods = informers.pods("example.muster.dev/job");

        // then
        assertThat(informers.resources(QUEUES)).isSameAs(queues);
        assertThat(informers.pods("example.muster.dev/job")).isSameAs(pods);
        assertThat(informers.resources(QUEUES, "example.muster.dev/job")).isNotSameAs(queues);
        assertThat(informers.pods("example.muster.dev/other")).isNotSameAs(pods);
        informers.stop();
    }

    @Test
    void informersStartInTheOrderAskedForEachAfterTheOneBeforeListedAndOnce() throws InterruptedException {
        // given
        TermInformers informers = new TermInformers(new SharedInformers(client), "example bridge");
        informers.resources(WIDGETS, "example.muster.dev/job");
        informers.pods("example.muster.dev/job");
        informers.resources(QUEUES);
        informers.resources(WIDGETS, "example.muster.dev/job");
        int before = server.getRequestCount();

        // when
        informers.start();

        // then: each informer lists and watches before the next one lists
        assertThat(gets(server.getRequestCount() - before)).containsExactly(
                "list /apis/example.muster.dev/v1/widgets?labelSelector=example.muster.dev%2Fjob",
                "watch /apis/example.muster.dev/v1/widgets?labelSelector=example.muster.dev%2Fjob",
                "list /api/v1/pods?labelSelector=example.muster.dev%2Fjob",
                "watch /api/v1/pods?labelSelector=example.muster.dev%2Fjob",
                "list /apis/scheduling.volcano.sh/v1beta1/queues",
                "watch /apis/scheduling.volcano.sh/v1beta1/queues");
        informers.stop();
    }

    @Test
    void anInformerThatCannotListIsNamedWithItsKind() {
        // given
        TermInformers informers = new TermInformers(new SharedInformers(client), "example bridge", Duration.ofSeconds(2));
        informers.resources(QUEUES);
        informers.resources(WIDGETS, "example.muster.dev/job");
        // the Widget CRD is not installed
        server.expect().get().withPath("/apis/example.muster.dev/v1/widgets?labelSelector=example.muster.dev%2Fjob&resourceVersion=0")
                .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").withMessage("the server could not find the requested resource")
                        .build()).always();

        // when, then
        assertThatThrownBy(informers::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("example bridge: the informer on example.muster.dev/v1/widgets labelled example.muster.dev/job"
                        + " could not list it: ")
                .hasMessageContaining("code=404");
        informers.stop();
    }

    @Test
    void aFirstListAnsweredTooManyRequestsIsTriedAgainUntilItLists() throws InterruptedException {
        // given: the Queue CRD was just made, and its storage answers 429 while it initialises, as kube-apiserver's does;
        // the HTTP client's own retries (10 by default) are turned off, so that what is tried again is the informer's list
        try (KubernetesClient once = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0).build()).build()) {
            TermInformers informers = new TermInformers(new SharedInformers(once), "example bridge", Duration.ofSeconds(60));
            SharedIndexInformer<GenericKubernetesResource> queues = informers.resources(QUEUES);
            server.expect().get().withPath("/apis/scheduling.volcano.sh/v1beta1/queues?resourceVersion=0")
                    .andReturn(429, new StatusBuilder().withCode(429).withReason("TooManyRequests").withMessage("storage is (re)initializing")
                            .build()).times(2);

            // when
            informers.start();

            // then
            assertThat(queues.hasSynced()).isTrue();
            assertThat(queues.isRunning()).isTrue();
            informers.stop();
        }
    }

    @Test
    void onlyAnAnswerThatMayChangeIsTriedAgainBeforeTheFirstList() {
        assertThat(TermInformers.retryAfter(false, new KubernetesClientException("storage is (re)initializing", 429, null))).isTrue();
        assertThat(TermInformers.retryAfter(false, new KubernetesClientException("etcd timeout", 504, null))).isTrue();
        assertThat(TermInformers.retryAfter(false, new KubernetesClientException("connection refused"))).isTrue();
        assertThat(TermInformers.retryAfter(false, new KubernetesClientException("not found", 404, null))).isFalse();
        assertThat(TermInformers.retryAfter(false, new KubernetesClientException("forbidden", 403, null))).isFalse();
        assertThat(TermInformers.retryAfter(true, new KubernetesClientException("not found", 404, null))).isTrue();
    }

    @Test
    void stopStopsEveryInformerAndMayBeCalledAgain() throws InterruptedException {
        // given
        TermInformers informers = new TermInformers(new SharedInformers(client), "example bridge");
        SharedIndexInformer<GenericKubernetesResource> queues = informers.resources(QUEUES);
        SharedIndexInformer<Pod> pods = informers.pods("example.muster.dev/job");
        informers.start();

        // when
        informers.stop();
        informers.stop();

        // then
        assertThat(queues.isRunning()).isFalse();
        assertThat(pods.isRunning()).isFalse();
        assertThatThrownBy(informers::start).hasMessage("example bridge: informers are started once");
    }

    /** The next {@code count} requests, each a list or a watch of a path with its label selector, in the order they came. */
    private List<String> gets(int count) throws InterruptedException {
        List<String> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
            String[] parts = request.getPath().split("\\?", 2);
            String selector = parts.length < 2 ? "" : Arrays.stream(parts[1].split("&")).filter(query -> query.startsWith("labelSelector="))
                    .map(query -> "?" + query).findFirst().orElse("");
            String verb = request.getPath().contains("watch=true") ? "watch " : "list ";
            requests.add(request.getMethod().equals("GET") ? verb + parts[0] + selector : request.getMethod() + " " + parts[0]);
        }
        return requests;
    }
}
