package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Module;
import dev.muster.bridge.airflow.AirflowBridgeModule;
import dev.muster.bridge.argo.ArgoBridgeModule;
import dev.muster.bridge.kubeflow.KubeflowBridgeModule;
import dev.muster.bridge.kubeflow.KubeflowNativeModule;
import dev.muster.bridge.spark.operator.SparkOperatorBridgeModule;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A bridge the {@code muster} command can put into the runtime: its name on the command line, the
 * Guice module that contributes its controllers (and CRDs), and the API resource it reads, which a
 * cluster must serve before the bridge's informers can list it. {@code muster up} runs every bridge
 * (it creates their CRDs), but native Kubeflow beside the real training operator ({@link #forUp});
 * {@code muster run} runs those named with {@code --bridge}.
 */
enum Bridge {
    ARGO("argo", "Argo Workflows: each fan-out of a template annotated muster.dev/gang: \"true\" is one gang",
            "argoproj.io/v1alpha1", "workflows", ArgoBridgeModule::new),
    KUBEFLOW("kubeflow", "Kubeflow's training operator: TFJobs and PyTorchJobs gang-scheduled in their queue, with reasons as events",
            "kubeflow.org/v1", "tfjobs", KubeflowBridgeModule::new),
    // never beside a running training operator: both would make and delete the same pods
    KUBEFLOW_NATIVE("kubeflow-native", "Muster's own TFJob and PyTorchJob controller, for a cluster without Kubeflow's training operator",
            "kubeflow.org/v1", "tfjobs", KubeflowNativeModule::new),
    SPARK("spark", "Kubeflow's spark-operator: SparkApplications' PodGroups sized with overhead and dynamic allocation, reasons as events",
            "sparkoperator.k8s.io/v1beta2", "sparkapplications", SparkOperatorBridgeModule::new),
    // Airflow's objects live in Airflow; the bridge reads pods only, and is off without --airflow-url (AirflowOptions)
    AIRFLOW("airflow", "Apache Airflow: a DAG run's pods get its critical path, a mapped task annotated muster.dev/gang: \"true\" is one gang;"
            + " off without --airflow-url", "v1", "pods", AirflowBridgeModule::new);

    private final String commandName;
    private final String description;
    private final String groupVersion;
    private final String resource;
    private final Supplier<Module> module;

    Bridge(String commandName, String description, String groupVersion, String resource, Supplier<Module> module) {
        this.commandName = commandName;
        this.description = description;
        this.groupVersion = groupVersion;
        this.resource = resource;
        this.module = module;
    }

    String commandName() {
        return commandName;
    }

    String description() {
        return description;
    }

    Module module() {
        return module.get();
    }

    /**
     * The bridges of {@code muster up}: all of them, except {@link #KUBEFLOW_NATIVE} when the real training
     * operator runs ({@code --peer training-operator}), which then makes the jobs' pods itself.
     */
    static ImmutableList<Bridge> forUp(boolean trainingOperator) {
        return Arrays.stream(values()).filter(bridge -> !(trainingOperator && bridge == KUBEFLOW_NATIVE))
                .collect(ImmutableList.toImmutableList());
    }

    static ImmutableList<Module> modules(Iterable<Bridge> bridges) {
        ImmutableList.Builder<Module> modules = ImmutableList.builder();
        bridges.forEach(bridge -> modules.add(bridge.module()));
        return modules.build();
    }

    /**
     * Why the cluster cannot run this bridge, if it cannot: the API resource the bridge reads is not
     * served (its CRDs are not installed), or discovery itself failed.
     */
    Optional<String> unservedBy(KubernetesClient client) {
        requireNonNull(client, "client is null");
        APIResourceList served;
        try {
            served = client.getApiResources(groupVersion);
        } catch (KubernetesClientException e) {
            return Optional.of("--bridge " + commandName + ": cannot ask " + client.getMasterUrl() + " whether it serves " + groupVersion
                    + " " + resource + " (" + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()) + ")");
        }
        boolean found = served != null && served.getResources() != null
                && served.getResources().stream().map(APIResource::getName).anyMatch(resource::equals);
        if (found) {
            return Optional.empty();
        }
        return Optional.of("--bridge " + commandName + " needs " + groupVersion + " " + resource + ", which " + client.getMasterUrl()
                + " does not serve: install its CRDs first");
    }

    /** Reads a {@code --bridge} value; an unknown name lists the known ones. */
    static final class Converter implements ITypeConverter<Bridge> {
        @Override
        public Bridge convert(String value) {
            return Arrays.stream(values())
                    .filter(bridge -> bridge.commandName.equals(value.toLowerCase(Locale.ROOT)))
                    .findFirst()
                    .orElseThrow(() -> new TypeConversionException("unknown bridge '" + value + "'; known: "
                            + String.join(", ", Arrays.stream(values()).map(Bridge::commandName).toList())));
        }
    }
}
