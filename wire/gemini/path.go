package gemini

import "strings"

// The two addressings of the one API, as a request path after any prefix (a
// case URL, a gateway's own): Google AI's, whose base URL is the API's root
// (GOOGLE_GEMINI_BASE_URL has no /v1beta), and Vertex AI's, whose base URL is
// a region's root (https://us-central1-aiplatform.googleapis.com) or the
// global one (https://aiplatform.googleapis.com, location "global"):
//
//	/v1beta/models/{model}:{method}
//	/{v1|v1beta1}/projects/{project}/locations/{location}/publishers/google/models/{model}:{method}
//	/{v1|v1beta1}/publishers/google/models/{model}:{method}   (Vertex AI express mode: an API key, no project)
//
// The model sits between the models prefix and the method, which is one of
// the two this format answers.
const (
	modelsPrefix = "/v1beta/models/"
	streamMethod = ":streamGenerateContent"
	wholeMethod  = ":generateContent"

	vertexModels    = "/publishers/google/models/"
	vertexProjects  = "/projects/"
	vertexLocations = "/locations/"
)

// vertexVersions are the API versions a Vertex AI path starts with: v1, and
// v1beta1, which Google's genai SDKs post to by default.
var vertexVersions = []string{"/v1", "/v1beta1"}

// PathModel reads the model a request path names and whether it asks for a
// stream (:streamGenerateContent) or one whole answer (:generateContent), in
// either addressing; "" and false for a path that is not Gemini's.
func PathModel(path string) (model string, stream bool) {
	model, stream, _, _ = cutPath(path)
	return model, stream
}

// APIPath is the part of a request path of either addressing that follows
// the provider's root URL, from the API version on (any prefix before it
// dropped), and whether path is Gemini's at all: what a proxy joins to
// https://generativelanguage.googleapis.com or to a Vertex AI endpoint.
func APIPath(path string) (string, bool) {
	_, _, start, ok := cutPath(path)
	if !ok {
		return "", false
	}
	return path[start:], true
}

// cutPath splits a request path of either addressing into its model and
// method, and finds where the API's own path starts (its version). The
// model is one path segment, not empty.
func cutPath(path string) (model string, stream bool, start int, ok bool) {
	rest, start, ok := cutVertex(path)
	if !ok {
		start = strings.LastIndex(path, modelsPrefix)
		if start < 0 {
			return "", false, 0, false
		}
		rest = path[start+len(modelsPrefix):]
	}
	switch {
	case strings.HasSuffix(rest, streamMethod):
		model, stream = strings.TrimSuffix(rest, streamMethod), true
	case strings.HasSuffix(rest, wholeMethod):
		model = strings.TrimSuffix(rest, wholeMethod)
	default:
		return "", false, 0, false
	}
	if !segment(model) {
		return "", false, 0, false
	}
	return model, stream, start, true
}

// cutVertex returns what follows /publishers/google/models/ in a Vertex AI
// path and where its version starts: before it, a version and, unless the
// path is express mode's, /projects/{project}/locations/{location}, each one
// segment, not empty.
func cutVertex(path string) (rest string, start int, ok bool) {
	i := strings.LastIndex(path, vertexModels)
	if i < 0 {
		return "", 0, false
	}
	head, rest := path[:i], path[i+len(vertexModels):]
	if j := strings.LastIndex(head, vertexProjects); j >= 0 {
		project, location, ok := strings.Cut(head[j+len(vertexProjects):], vertexLocations)
		if !ok || !segment(project) || !segment(location) {
			return "", 0, false
		}
		head = head[:j]
	}
	for _, v := range vertexVersions {
		if strings.HasSuffix(head, v) {
			return rest, len(head) - len(v), true
		}
	}
	return "", 0, false
}

// segment reports whether s is one path segment, not empty: no "/" and, as
// the method follows a ":", no ":".
func segment(s string) bool {
	return s != "" && !strings.ContainsAny(s, "/:")
}
