-- Drives Neovim's built-in LSP client (0.7.2: start_client, no vim.lsp.start)
-- against charter lsp, and writes what it saw to $REPORT as JSON. Run by
-- TestNeovim (nvim_test.go):
--   nvim --headless --clean -u NONE -c 'luafile nvim.lua' -c 'cquit 2'
-- The script always ends nvim itself: cquit 0 when it got to the end,
-- cquit 1 on a Lua error (written to the report).
local report = { steps = {} }

local function write_report()
  local f = io.open(os.getenv("REPORT"), "w")
  f:write(vim.json.encode(report))
  f:close()
end

local function step(name, value)
  table.insert(report.steps, name)
  report[name] = value
end

local function find_line(bufnr, pattern)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(pattern, 1, true)
    if col then
      return i - 1, col - 1, line
    end
  end
  error("no line with " .. pattern)
end

local function main()
  local root = os.getenv("ROOT")
  local id = vim.lsp.start_client({
    name = "charter",
    cmd = { os.getenv("CHARTER"), "lsp" },
    root_dir = root,
    flags = { debounce_text_changes = 50 },
  })
  assert(id, "start_client failed")
  vim.cmd("edit " .. root .. "/agents/marco.cue")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo.filetype = "cue"
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  assert(vim.wait(20000, function() return client.initialized end, 20), "the server did not initialize")
  step("initialized", true)

  -- Introduce a bad option and read the diagnostic back.
  local row, col, line = find_line(buf, 'verbosity: "concise"')
  local bad = line:gsub('verbosity: "concise"', 'verbosity: "consise"')
  vim.api.nvim_buf_set_lines(buf, row, row + 1, false, { bad })
  assert(vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20), "no diagnostic for the bad option")
  local d = vim.diagnostic.get(buf)[1]
  step("diagnostic", { message = d.message, lnum = d.lnum, col = d.col, code = d.code, source = d.source })

  -- Hover on another option of the same line.
  local _, hcol = find_line(buf, '"every_step"')
  local res = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = row, character = hcol + 2 },
  }, 10000)
  local hover = res and res[id] and res[id].result
  step("hover", hover and hover.contents and hover.contents.value or vim.NIL)

  -- Completion inside the bad value.
  local _, ccol = find_line(buf, '"consise"')
  res = vim.lsp.buf_request_sync(buf, "textDocument/completion", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = row, character = ccol + 3 },
  }, 10000)
  local items = {}
  local result = res and res[id] and res[id].result
  for _, it in ipairs(result and (result.items or result) or {}) do
    table.insert(items, it.label)
  end
  step("completion", items)

  -- The did-you-mean fix as a code action, applied by the client.
  res = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = row, character = 0 }, ["end"] = { line = row, character = 1 } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, row) },
  }, 10000)
  local actions = res and res[id] and res[id].result or {}
  local titles = {}
  for _, a in ipairs(actions) do
    table.insert(titles, a.title)
  end
  step("actions", titles)
  assert(actions[1] and actions[1].edit, "no code action with an edit")
  vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding)
  step("line after fix", vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1])

  -- The fix clears the diagnostic.
  local cleared = vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20)
  step("cleared", cleared)

  -- Go to definition of the agent marco reports to.
  local drow, dcol = find_line(buf, 'reports_to:   "sarah"')
  res = vim.lsp.buf_request_sync(buf, "textDocument/definition", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = drow, character = dcol + 17 },
  }, 10000)
  local loc = res and res[id] and res[id].result
  step("definition", loc and (loc.uri or (loc[1] and loc[1].uri)) or vim.NIL)

  vim.lsp.stop_client(id)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  report.error = tostring(err)
end
write_report()
vim.cmd(ok and "cquit 0" or "cquit 1")
