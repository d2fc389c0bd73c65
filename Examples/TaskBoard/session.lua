ui.find("tasks").items
ui.find("tasks"):add_task("Water the plants")
ui.find("tasks").count
ui.find("tasks"):add_task("")
ui.find("clear"):tap()
ui.find("board"):dismiss()
ui.find("tasks").on_complete = function(self, title) print("done: " .. title) end
ui.find("tasks"):complete(1)
ui.find("clear"):tap()
ui.find("heading").text
ui.find("goal").value = 42
ui.find("goal").value
ui.find("refresh"):tap()
ui.find("summary").text
ui.find("zoom").value = 2
ui.find("broken"):dismiss()
ui.find("sync"):tap()
.plugins
.tree
