package dev.muster.bridge.kubeflow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.muster.runtime.controller.Controller;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The module's wiring, as the runtime sees it: one controller, and the CRD file the embedded server serves. */
class KubeflowBridgeModuleTest {
    @Test
    void theModuleContributesTheControllerAndTheTrainingJobCrds() throws IOException {
        try (TestingApiServer server = new TestingApiServer()) {
            Injector injector = Guice.createInjector(new KubeflowBridgeModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(KubernetesClient.class).toInstance(server.client());
                    bind(Clock.class).toInstance(Clock.systemUTC());
                }
            });

            Set<Controller> controllers = injector.getInstance(Key.get(new TypeLiteral<Set<Controller>>() {}));
            Set<CustomResourceDefinitions> crds = injector.getInstance(Key.get(new TypeLiteral<Set<CustomResourceDefinitions>>() {}));

            assertThat(controllers).extracting(Controller::name).containsExactly(TrainingJobController.NAME);
            assertThat(crds).singleElement().satisfies(crd -> {
                try (InputStream in = crd.open()) {
                    assertThat(new String(in.readAllBytes(), UTF_8))
                            .contains("name: tfjobs.kubeflow.org", "name: pytorchjobs.kubeflow.org");
                }
            });
        }
    }
}
