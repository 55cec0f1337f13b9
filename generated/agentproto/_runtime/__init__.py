"""Runtime pieces shared by every protocol of agentproto (hand-written, shipped as is)."""
