#include "qualrank/model/node_resolver.h"

#include "qualrank/model/taxonomy.h"

namespace qualrank {

NodeResolver direct_resolver(const Taxonomy& taxonomy) {
  return [&taxonomy](const std::string& written) {
    NodeResolution r;
    r.node = taxonomy.resolve(written);
    if (!r.node) {
      r.problem = "unknown taxonomy node '" + written + "'";
    } else if (taxonomy.find(*r.node)->status != "active") {
      r.problem = "taxonomy node '" + *r.node + "' is " + taxonomy.find(*r.node)->status;
      r.node.reset();
    }
    return r;
  };
}

}  // namespace qualrank
