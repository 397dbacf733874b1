package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Access reviews are answered as kube-apiserver answers them, with the review and its status: the
 * embedded server authorizes everything, so every one is allowed (Argo's workflow controller asks
 * before it watches namespaces, and exits on a 404).
 */
class AccessReviewTest {
    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aSelfSubjectAccessReviewIsAllowedAndKeepsWhatItAsked() {
        // when
        SelfSubjectAccessReview review = client.authorization().v1().selfSubjectAccessReview().create(new SelfSubjectAccessReviewBuilder()
                .withNewSpec().withNewResourceAttributes().withVerb("watch").withResource("namespaces").endResourceAttributes().endSpec()
                .build());

        // then
        assertThat(review.getStatus().getAllowed()).isTrue();
        assertThat(review.getStatus().getReason()).isEqualTo("the embedded API server authorizes every request");
        assertThat(review.getSpec().getResourceAttributes().getVerb()).isEqualTo("watch");
        assertThat(review.getSpec().getResourceAttributes().getResource()).isEqualTo("namespaces");
    }

    @Test
    void aSubjectAccessReviewIsAllowedToo() {
        // when
        SubjectAccessReview review = client.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder()
                .withNewSpec().withUser("argo").withNewResourceAttributes().withVerb("list").withResource("pods").endResourceAttributes()
                .endSpec().build());

        // then
        assertThat(review.getStatus().getAllowed()).isTrue();
        assertThat(review.getSpec().getUser()).isEqualTo("argo");
    }

    @Test
    void aReviewThatIsNotAnObjectIsABadRequest() throws Exception {
        // when
        HttpResponse<String> response = TestingHttp.client(server).send(HttpRequest.newBuilder(
                URI.create(server.url() + "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("[]")).build(),
                HttpResponse.BodyHandlers.ofString());

        // then
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"reason\":\"BadRequest\"").contains("must be a JSON object");
        // nothing was stored
        assertThat(TestingHttp.client(server).send(HttpRequest.newBuilder(
                URI.create(server.url() + "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
}
