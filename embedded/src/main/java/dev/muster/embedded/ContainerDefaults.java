package dev.muster.embedded;

import static dev.muster.embedded.FieldDefaults.putIfEmpty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The defaults kube-apiserver v1.34.4 gives the containers and volumes of a pod spec, in a pod or a
 * pod template alike ({@code pkg/apis/core/v1/defaults.go} and {@code zz_generated.defaults.go}):
 * a container's {@code imagePullPolicy} ({@code Always} for the tag {@code latest}, which an image
 * without tag or digest has, else {@code IfNotPresent}), {@code terminationMessagePath} and {@code
 * terminationMessagePolicy}, {@code resources: {}}, a port's {@code protocol: TCP}, a field reference's
 * {@code apiVersion: v1}, a probe's timeout, period and thresholds and an HTTP probe's path and scheme;
 * a volume without a source becomes an {@code emptyDir}, and Secret, ConfigMap, downward API and
 * projected volumes get mode 0644 (420), a projected token an hour. Clients that compare what they
 * wrote with what is stored (the training operator, kubectl diff) see what a cluster stores.
 */
final class ContainerDefaults {
    private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers", "ephemeralContainers");
    private static final List<String> PROBES = List.of("livenessProbe", "readinessProbe", "startupProbe");
    private static final List<String> VOLUME_SOURCES = List.of("hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo",
            "secret", "nfs", "iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI",
            "fc", "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected", "portworxVolume",
            "scaleIO", "storageos", "csi", "ephemeral", "image");
    private static final int DEFAULT_MODE = 0644;
    /** A path component of a distribution reference: lower-case only, so an image with an upper-case path does not parse. */
    private static final Pattern PATH_COMPONENT = Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*");

    private ContainerDefaults() {}

    static void defaultSpec(ObjectNode spec) {
        for (String list : CONTAINER_LISTS) {
            for (JsonNode container : spec.path(list)) {
                if (container instanceof ObjectNode fields) {
                    container(fields);
                }
            }
        }
        for (JsonNode volume : spec.path("volumes")) {
            if (volume instanceof ObjectNode fields) {
                volume(fields);
            }
        }
    }

    private static void container(ObjectNode container) {
        if (container.path("imagePullPolicy").asText("").isEmpty()) {
            container.put("imagePullPolicy", tag(container.path("image").asText("")).equals("latest") ? "Always" : "IfNotPresent");
        }
        putIfEmpty(container, "terminationMessagePath", "/dev/termination-log");
        putIfEmpty(container, "terminationMessagePolicy", "File");
        container.withObjectProperty("resources");
        for (JsonNode port : container.path("ports")) {
            if (port instanceof ObjectNode fields) {
                putIfEmpty(fields, "protocol", "TCP");
            }
        }
        for (JsonNode variable : container.path("env")) {
            if (variable.path("valueFrom").path("fieldRef") instanceof ObjectNode fieldRef) {
                putIfEmpty(fieldRef, "apiVersion", "v1");
            }
        }
        for (String name : PROBES) {
            if (container.path(name) instanceof ObjectNode probe) {
                putIfZero(probe, "timeoutSeconds", 1);
                putIfZero(probe, "periodSeconds", 10);
                putIfZero(probe, "successThreshold", 1);
                putIfZero(probe, "failureThreshold", 3);
                if (probe.path("httpGet") instanceof ObjectNode httpGet) {
                    putIfEmpty(httpGet, "path", "/");
                    putIfEmpty(httpGet, "scheme", "HTTP");
                }
            }
        }
    }

    private static void volume(ObjectNode volume) {
        if (VOLUME_SOURCES.stream().noneMatch(volume::hasNonNull)) {
            volume.putObject("emptyDir");
        }
        for (String source : List.of("secret", "configMap", "downwardAPI", "projected")) {
            if (volume.path(source) instanceof ObjectNode fields && !fields.hasNonNull("defaultMode")) {
                fields.put("defaultMode", DEFAULT_MODE);
            }
        }
        if (volume.path("hostPath") instanceof ObjectNode hostPath && !hostPath.has("type")) {
            hostPath.put("type", "");
        }
        for (JsonNode projection : volume.path("projected").path("sources")) {
            if (projection.path("serviceAccountToken") instanceof ObjectNode token && !token.hasNonNull("expirationSeconds")) {
                token.put("expirationSeconds", 3600);
            }
            for (JsonNode item : projection.path("downwardAPI").path("items")) {
                if (item.path("fieldRef") instanceof ObjectNode fieldRef) {
                    putIfEmpty(fieldRef, "apiVersion", "v1");
                }
            }
        }
        for (JsonNode item : volume.path("downwardAPI").path("items")) {
            if (item.path("fieldRef") instanceof ObjectNode fieldRef) {
                putIfEmpty(fieldRef, "apiVersion", "v1");
            }
        }
    }

    /**
     * The tag {@code parsers.ParseImageName} finds: the one written, {@code latest} when there is neither
     * tag nor digest, none for a digest alone or a reference that does not parse.
     */
    static String tag(String image) {
        String name = image;
        boolean digest = false;
        int at = name.indexOf('@');
        if (at >= 0) {
            digest = true;
            name = name.substring(0, at);
        }
        String tag = "";
        int colon = name.lastIndexOf(':');
        if (colon > name.lastIndexOf('/')) {
            tag = name.substring(colon + 1);
            name = name.substring(0, colon);
        }
        if (!parses(name)) {
            return "";
        }
        return tag.isEmpty() && !digest ? "latest" : tag;
    }

    private static boolean parses(String name) {
        if (name.isEmpty()) {
            return false;
        }
        String[] components = name.split("/", -1);
        // the first component is a registry host when it has a dot or a port, or is localhost
        int first = components.length > 1 && (components[0].contains(".") || components[0].contains(":")
                || components[0].equals("localhost")) ? 1 : 0;
        for (int index = first; index < components.length; index++) {
            if (!PATH_COMPONENT.matcher(components[index]).matches()) {
                return false;
            }
        }
        return true;
    }

    private static void putIfZero(ObjectNode object, String field, int value) {
        if (object.path(field).asInt(0) == 0) {
            object.put(field, value);
        }
    }
}
